/**
 * Compares two V8 heap snapshots (`.heapsnapshot`, as `/__bench/heap-snapshot` or the soak's
 * `SOAK_SNAPSHOTS` write them) by constructor: count and self size of each kind of object in each,
 * sorted by the growth of self size, the way DevTools' comparison view summarises them. Objects are
 * grouped by constructor name; strings, arrays, code and other internal kinds by `(type)`. Also lists
 * the Maps and Sets of the second snapshot whose tables grew largest, with the names of the objects
 * holding them, so a growing cache can be found.
 *
 * `npx tsx bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]`
 */
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Group {
  count: number;
  size: number;
}

interface Parsed {
  groups: Map<string, Group>;
  total: number;
  /** Maps and Sets: node index → [self size of the table, name of a holder]. */
  collections: { name: string; table: number; holder: string }[];
}

function parse(file: string): Parsed {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const { node_fields: nf, node_types: nt, edge_fields: ef, edge_types: et } = snap.snapshot.meta;
  const types = nt[0];
  const edgeTypes = et[0];
  const N = nf.length;
  const E = ef.length;
  const iType = nf.indexOf('type');
  const iName = nf.indexOf('name');
  const iSize = nf.indexOf('self_size');
  const iEdges = nf.indexOf('edge_count');
  const eType = ef.indexOf('type');
  const eName = ef.indexOf('name_or_index');
  const eTo = ef.indexOf('to_node');
  const { nodes, edges, strings } = snap;
  const groups = new Map<string, Group>();
  let total = 0;
  const nameOf = (i: number) => {
    const type = types[nodes[i + iType]!]!;
    return type === 'object' || type === 'closure' ? (type === 'closure' ? `${strings[nodes[i + iName]!]}()` : strings[nodes[i + iName]!]!) : `(${type})`;
  };
  // First edge of each node, and who points at each Map/Set (for the holder's name).
  const firstEdge = new Uint32Array(nodes.length / N);
  for (let n = 0, e = 0; n < nodes.length / N; n++) {
    firstEdge[n] = e;
    e += nodes[n * N + iEdges]! * E;
  }
  const collectionIdx = new Set<number>();
  for (let i = 0; i < nodes.length; i += N) {
    const name = nameOf(i);
    const size = nodes[i + iSize]!;
    total += size;
    const g = groups.get(name) ?? { count: 0, size: 0 };
    g.count++;
    g.size += size;
    groups.set(name, g);
    if (name === 'Map' || name === 'Set') collectionIdx.add(i);
  }
  const holder = new Map<number, string>();
  const collections: Parsed['collections'] = [];
  for (let n = 0; n < nodes.length / N; n++) {
    const from = n * N;
    for (let e = firstEdge[n]!; e < firstEdge[n]! + nodes[from + iEdges]! * E; e += E) {
      const to = edges[e + eTo]!;
      if (collectionIdx.has(to) && !holder.has(to) && edgeTypes[edges[e + eType]!] !== 'weak') {
        const edgeName = edgeTypes[edges[e + eType]!] === 'element' || edgeTypes[edges[e + eType]!] === 'hidden' ? `[${edges[e + eName]}]` : strings[edges[e + eName]!];
        holder.set(to, `${nameOf(from)}.${edgeName}`);
      }
    }
  }
  for (const i of collectionIdx) {
    // A Map's entries live in its `table` (an internal array) reached by an internal edge.
    const n = i / N;
    let table = 0;
    for (let e = firstEdge[n]!; e < firstEdge[n]! + nodes[i + iEdges]! * E; e += E) {
      if (strings[edges[e + eName]!] === 'table') table = nodes[edges[e + eTo]! + iSize]!;
    }
    collections.push({ name: nameOf(i), table, holder: holder.get(i) ?? '?' });
  }
  return { groups, total, collections };
}

const [a, b, rowsArg] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]');
const rows = Number(rowsArg ?? 30);
const before = parse(a);
const after = parse(b);
const names = new Set([...before.groups.keys(), ...after.groups.keys()]);
const diff = [...names].map((name) => {
  const x = before.groups.get(name) ?? { count: 0, size: 0 };
  const y = after.groups.get(name) ?? { count: 0, size: 0 };
  return { name, count: y.count - x.count, size: y.size - x.size, countAfter: y.count, sizeAfter: y.size };
});
diff.sort((p, q) => q.size - p.size);
const kb = (n: number) => (n / 1024).toFixed(0);
const out = [
  `self size: ${kb(before.total)} KB → ${kb(after.total)} KB (${kb(after.total - before.total)} KB)`,
  '',
  '| constructor / kind | Δ count | Δ self KB | count after | self KB after |',
  '|---|---:|---:|---:|---:|',
  ...diff.slice(0, rows).map((d) => `| ${d.name.slice(0, 80)} | ${d.count} | ${kb(d.size)} | ${d.countAfter} | ${kb(d.sizeAfter)} |`),
  '',
  'largest Map/Set tables in the second snapshot:',
  '| kind | table KB | held by |',
  '|---|---:|---|',
  ...after.collections.sort((p, q) => q.table - p.table).slice(0, 15).map((c) => `| ${c.name} | ${kb(c.table)} | ${c.holder.slice(0, 100)} |`),
];
process.stdout.write(`${out.join('\n')}\n`);
