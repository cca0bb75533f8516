/** Every exported name of the module `file` (values and types, sorted), resolved with NodeNext rules. */
export function exportNames(file: string): string[];
