/**
 * @module rest/fields
 * `_fields`: keeps only the named (dot-path) fields of a response, per item for lists, in the
 * response's own key order.
 */
import { parseList } from './php-query.js';

type Tree = Map<string, Tree | true>;

function buildTree(fields: string[]): Tree {
  const root: Tree = new Map();
  for (const field of fields) {
    let node = root;
    const parts = field.split('.');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const existing = node.get(part);
      if (existing === true) break; // a parent was listed: its children are redundant
      if (i === parts.length - 1) {
        node.set(part, true);
      } else {
        const next: Tree = existing ?? new Map();
        node.set(part, next);
        node = next;
      }
    }
  }
  return root;
}

function pick(value: unknown, tree: Tree): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const sub = tree.get(k);
    if (sub === undefined) continue;
    out[k] = sub === true ? v : pick(v, sub);
  }
  return out;
}

/** The requested field list of a `_fields` value, or undefined when absent/empty. */
export function parseFields(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = parseList(value).map((s) => s.trim()).filter(Boolean);
  return list.length > 0 ? list : undefined;
}

/** True when `_fields` names `field` or something under it (`rest_is_field_included`). */
function namesField(fields: string[], field: string): boolean {
  return fields.some((f) => f === field || f.startsWith(`${field}.`));
}

/**
 * Applies `_fields` to a response body (a list is filtered item by item). The links of a single
 * object are not data in WordPress: controllers add all of them whenever `_links` or `_embedded` is
 * named and the filter leaves them alone, so `_links` is kept whole then. The items of a list carry
 * their `_links` as data (`prepare_response_for_collection`), filtered like any other key.
 */
export function filterFields(data: unknown, fields: string[]): unknown {
  if (Array.isArray(data)) {
    const tree = buildTree(fields);
    return data.map((item) => pick(item, tree));
  }
  const links = namesField(fields, '_links') || namesField(fields, '_embedded');
  return pick(data, buildTree(links ? [...fields.filter((f) => !namesField([f], '_links')), '_links'] : fields));
}
