import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';

/**
 * The parsed JSON of one of our own state files, `{ body }`, or null when the file is not there; text that is not JSON
 * throws what `notJson` builds from the parse error (each store names its own fault and remedy).
 */
export async function readJsonFile(fs: FileSystemPort, path: string, notJson: (cause: unknown) => Error): Promise<{ body: unknown } | null> {
  let text: string;
  try {
    text = await fs.readText(path);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return null;
    throw err;
  }
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (err) {
    throw notJson(err);
  }
}
