// A protobuf wire-format encoder for agy test databases: the metadata record (`CortexTrajectoryMetadata`) with the field
// numbers of the published descriptor (1 → 1 workspace URI, 5 parent, 7 workspace URIs, 17 nesting depth, 18 project).
import type { ProtoField } from '../../src/agents/agy/protobuf-wire.js';

function varint(v: bigint): number[] {
  const out: number[] = [];
  let x = v;
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x > 0n) b |= 0x80;
    out.push(b);
  } while (x > 0n);
  return out;
}

/** Encodes fields in order (the inverse of readProtoFields). */
export function encodeProto(fields: readonly ProtoField[]): Uint8Array {
  const out: number[] = [];
  for (const f of fields) {
    const wire = f.wire === 'varint' ? 0 : f.wire === 'bytes' ? 2 : f.value.length === 8 ? 1 : 5;
    out.push(...varint((BigInt(f.field) << 3n) | BigInt(wire)));
    if (f.wire === 'varint') out.push(...varint(f.value));
    else if (f.wire === 'bytes') out.push(...varint(BigInt(f.value.length)), ...f.value);
    else out.push(...f.value);
  }
  return Uint8Array.from(out);
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A metadata record: workspaces as `file://` URIs in fields 1.1 and 7, an optional parent (5) and depth (17). */
export function trajectoryBlob(o: { workspaces?: string[]; parent?: string; depth?: number }): Uint8Array {
  const fields: ProtoField[] = [];
  for (const w of o.workspaces ?? []) fields.push({ field: 1, wire: 'bytes', value: encodeProto([{ field: 1, wire: 'bytes', value: text(`file://${w}`) }]) });
  if (o.parent !== undefined) fields.push({ field: 5, wire: 'bytes', value: text(o.parent) });
  for (const w of o.workspaces ?? []) fields.push({ field: 7, wire: 'bytes', value: text(`file://${w}`) });
  if (o.depth !== undefined) fields.push({ field: 17, wire: 'varint', value: BigInt(o.depth) });
  fields.push({ field: 18, wire: 'bytes', value: text('default-cli-project') });
  return encodeProto(fields);
}

/** The exact 9 statements agy 1.2–1.3 creates in a conversation database (LAYOUT.md §2). */
export const AGY_SCHEMA = [
  'CREATE TABLE `trajectory_meta` (`trajectory_id` text,`cascade_id` text,`trajectory_type` integer,`source` integer,PRIMARY KEY (`trajectory_id`))',
  'CREATE TABLE `steps` (`idx` integer,`step_type` integer NOT NULL DEFAULT 0,`status` integer NOT NULL DEFAULT 0,`has_subtrajectory` numeric NOT NULL DEFAULT false,`metadata` blob,`error_details` blob,`permissions` blob,`task_details` blob,`render_info` blob,`step_payload` blob,`step_format` integer NOT NULL DEFAULT 0,PRIMARY KEY (`idx`))',
  'CREATE INDEX `idx_steps_status` ON `steps`(`status`)',
  'CREATE INDEX `idx_steps_step_type` ON `steps`(`step_type`)',
  'CREATE TABLE `gen_metadata` (`idx` integer,`data` blob,`size` integer NOT NULL DEFAULT 0,PRIMARY KEY (`idx`))',
  'CREATE TABLE `executor_metadata` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
  'CREATE TABLE `parent_references` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
  'CREATE TABLE `trajectory_metadata_blob` (`id` text DEFAULT "main",`data` blob,PRIMARY KEY (`id`))',
  'CREATE TABLE `battle_mode_infos` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
];

/** SQL creating a real-schema conversation database of `id` whose metadata record is `blob` (null: no record row). */
export function agyConversationSql(id: string, blob: Uint8Array | null): string[] {
  const rows = [`INSERT INTO trajectory_meta VALUES ('${id}', '${id}', 4, 17)`, "INSERT INTO steps (idx, step_type, status) VALUES (0, 14, 3)"];
  if (blob !== null) rows.push(`INSERT INTO trajectory_metadata_blob VALUES ('main', X'${Buffer.from(blob).toString('hex')}')`);
  return [...AGY_SCHEMA, ...rows];
}
