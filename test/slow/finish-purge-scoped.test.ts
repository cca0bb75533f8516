// A scoped purge stopped part-way, finished by the same command, at every step that leaves a different disk (npm test:
// the first, the middle and the last; test/integration/finish-purge-scoped.test.ts, whose sizes come from the tier).
import '../integration/finish-purge-scoped.test.js';
