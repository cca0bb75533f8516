import { parseDocument, type ScalarTag, type Tags } from 'yaml';

// The full YAML parser, tuned to read a file as PyYAML's safe_load does (YAML 1.1 types), except that an
// unquoted timestamp stays the string it is (the registry holds times as strings; a Date would not survive).
const PY_TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const PY_FALSE = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;
// PyYAML's floats need a dot before an exponent, and the exponent a sign (`1e3` is a string there).
const PY_FLOAT_EXP = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)[eE][-+][0-9]+$/;
const PY_FLOAT = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)$/;

function isScalarTag(t: unknown): t is ScalarTag {
  return typeof t === 'object' && t !== null && 'test' in t && (t as { test?: unknown }).test instanceof RegExp;
}

function pyTags(tags: Tags): Tags {
  const out: Tags = [];
  for (const t of tags) {
    if (typeof t === 'object' && t.tag === 'tag:yaml.org,2002:timestamp') continue;
    if (!isScalarTag(t)) {
      out.push(t);
      continue;
    }
    const src = t.test?.source ?? '';
    if (t.tag === 'tag:yaml.org,2002:bool') out.push({ ...t, test: src.includes('rue') ? PY_TRUE : PY_FALSE });
    else if (t.tag === 'tag:yaml.org,2002:float' && t.format === 'EXP') out.push({ ...t, test: PY_FLOAT_EXP });
    else if (t.tag === 'tag:yaml.org,2002:float' && src.includes('.[0-9_]*$')) out.push({ ...t, test: PY_FLOAT });
    else out.push(t);
  }
  return out;
}

/**
 * Parses any YAML document with YAML 1.1 (PyYAML) scalar types; throws the yaml package's YAMLParseError on bad YAML, and
 * its YAMLWarning on a tag it does not know (`!x`, `!!python/object:…`), which PyYAML's safe_load refuses too. Prints
 * nothing: the yaml package's own warnings are silenced.
 * @public
 */
export function fullParseYaml(text: string): unknown {
  const doc = parseDocument(text, { version: '1.1', customTags: pyTags, uniqueKeys: true, prettyErrors: true, logLevel: 'silent' });
  const [error] = doc.errors;
  if (error !== undefined) throw error;
  const unknownTag = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (unknownTag !== undefined) throw unknownTag;
  return doc.toJS({ maxAliasCount: 1000 });
}
