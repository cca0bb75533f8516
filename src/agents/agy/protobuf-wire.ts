/**
 * One top-level field of a protobuf message as the wire format gives it: a varint (wire type 0), a length-delimited
 * payload (wire type 2: a string, bytes or a nested message), or a fixed-width value (wire types 1 and 5) kept as bytes.
 * @public
 */
export type ProtoField =
  | { field: number; wire: 'varint'; value: bigint }
  | { field: number; wire: 'bytes'; value: Uint8Array }
  | { field: number; wire: 'fixed'; value: Uint8Array };

/** More fields than any trajectory record holds; a larger message is not decoded. */
const MAX_FIELDS = 100_000;
/** The highest field number protobuf allows. */
const MAX_FIELD_NUMBER = 2 ** 29 - 1;

// A varint at `at`: its value and where the next byte is, or null when truncated or longer than 10 bytes.
function varint(bytes: Uint8Array, at: number): { value: bigint; next: number } | null {
  let value = 0n;
  for (let n = 0; n < 10; n += 1) {
    const i = at + n;
    if (i >= bytes.length) return null;
    const b = bytes[i] as number;
    value |= BigInt(b & 0x7f) << BigInt(7 * n);
    if ((b & 0x80) === 0) return { value, next: i + 1 };
  }
  return null;
}

// One field at `at`, or null when the bytes there are not a well-formed field.
function fieldAt(bytes: Uint8Array, at: number): { field: ProtoField; next: number } | null {
  const key = varint(bytes, at);
  if (key === null) return null;
  const number = key.value >> 3n;
  if (number < 1n || number > BigInt(MAX_FIELD_NUMBER)) return null;
  const field = Number(number);
  switch (Number(key.value & 7n)) {
    case 0: {
      const v = varint(bytes, key.next);
      return v === null ? null : { field: { field, wire: 'varint', value: v.value }, next: v.next };
    }
    case 1:
    case 5: {
      const width = (key.value & 7n) === 1n ? 8 : 4;
      const end = key.next + width;
      return end > bytes.length ? null : { field: { field, wire: 'fixed', value: bytes.subarray(key.next, end) }, next: end };
    }
    case 2: {
      const len = varint(bytes, key.next);
      if (len === null || len.value > BigInt(bytes.length - len.next)) return null;
      const end = len.next + Number(len.value);
      return { field: { field, wire: 'bytes', value: bytes.subarray(len.next, end) }, next: end };
    }
    default:
      // Groups (3, 4) are deprecated and never written by agy; 6 and 7 do not exist.
      return null;
  }
}

/**
 * The top-level fields of a protobuf message in wire order, or null when the bytes are not a well-formed message
 * (truncated, an impossible wire type or field number, a length past the end, too many fields): a caller treats that as
 * unknown. Reads nothing past the end of `bytes` and never throws.
 * @public
 */
export function readProtoFields(bytes: Uint8Array): ProtoField[] | null {
  const out: ProtoField[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (out.length >= MAX_FIELDS) return null;
    const f = fieldAt(bytes, at);
    if (f === null) return null;
    out.push(f.field);
    at = f.next;
  }
  return out;
}

/**
 * The UTF-8 text of every length-delimited occurrence of `field` (invalid UTF-8 is left out); empty for a malformed
 * message. Never throws.
 * @public
 */
export function protoStrings(fields: readonly ProtoField[] | null, field: number): string[] {
  const out: string[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const f of fields ?? []) {
    if (f.field !== field || f.wire !== 'bytes') continue;
    try {
      out.push(utf8.decode(f.value));
    } catch {
      continue;
    }
  }
  return out;
}

/**
 * The last varint value of `field` (protobuf's rule for a repeated scalar read as singular), or null when absent.
 * @public
 */
export function protoVarint(fields: readonly ProtoField[] | null, field: number): bigint | null {
  let last: bigint | null = null;
  for (const f of fields ?? []) if (f.field === field && f.wire === 'varint') last = f.value;
  return last;
}

/**
 * The payloads of every length-delimited occurrence of `field` decoded as nested messages (a payload that is not a
 * well-formed message is left out). Never throws.
 * @public
 */
export function protoMessages(fields: readonly ProtoField[] | null, field: number): ProtoField[][] {
  const out: ProtoField[][] = [];
  for (const f of fields ?? []) {
    if (f.field !== field || f.wire !== 'bytes') continue;
    const inner = readProtoFields(f.value);
    if (inner !== null) out.push(inner);
  }
  return out;
}
