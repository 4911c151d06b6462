/**
 * @module namespaces/contact-forms/form-tags
 * The form-tag language of the original (`[text* your-name minlength:2 "default"]`,
 * `[select menu "a" "b|B"]`, `[acceptance terms] text [/acceptance]`): the scanner that finds the
 * tags of a template, and each tag's options, values, pipes and content as the REST answer lists them.
 */

/** Tag types this site understands (with and without the `*` required marker). */
export const TAG_TYPES = Object.freeze([
  'text', 'email', 'url', 'tel', 'number', 'range', 'date', 'textarea', 'select', 'checkbox', 'radio',
  'acceptance', 'quiz', 'file', 'submit', 'hidden', 'response', 'captchac', 'captchar',
] as const);

/** Types without a name (their first option is an option). */
const NAMELESS = new Set(['submit', 'response']);

export interface FormTag {
  type: string;
  basetype: string;
  name: string;
  options: string[];
  raw_values: string[];
  labels: string[];
  values: string[];
  /** `[before, after]` of each value: the label shown and the value used in mail. */
  pipes: [string, string][];
  content: string;
}

const NAME_PATTERN = /^[A-Za-z][-A-Za-z0-9_:.]*$/;
const TYPE_ALTERNATION = TAG_TYPES.flatMap((t) => [`${t}\\*`, t]).join('|');
// [[escaped]] tags, the tag with its attribute text, and the enclosed content of `[x ...]…[/x]`.
const TAG_RE = new RegExp(`(\\[?)\\[(${TYPE_ALTERNATION})(?:[\\r\\n\\t ](.*?))?(?:[\\r\\n\\t ](\\/))?\\](?:([^[]*?)\\[\\/\\2\\])?(\\]?)`, 'gs');
const ATTR_RE = /^([-+*=0-9a-zA-Z:.!?#$&@_/|%\r\n\t ]*?)((?:[\r\n\t ]*"[^"]*"|[\r\n\t ]*'[^']*')*)$/s;

function parseAttributes(text: string): { options: string[]; values: string[] } {
  const m = ATTR_RE.exec(text);
  if (!m) return { options: [], values: [] };
  const options = m[1]!.split(/[\r\n\t ]+/).filter(Boolean);
  const values = [...m[2]!.matchAll(/"([^"]*)"|'([^']*)'/g)].map((v) => v[1] ?? v[2] ?? '');
  return { options, values };
}

/** Every tag of `template`, in order, skipping `[[escaped]]` ones and named tags without a valid name. */
export function scanFormTags(template: string): FormTag[] {
  const tags: FormTag[] = [];
  for (const m of template.matchAll(TAG_RE)) {
    if (m[1] === '[' && m[6] === ']') continue;
    const type = m[2]!;
    const basetype = type.replace(/\*$/, '');
    const { options, values } = parseAttributes(m[3] ?? '');
    let name = '';
    if (!NAMELESS.has(basetype)) {
      name = options.shift() ?? '';
      if (!NAME_PATTERN.test(name)) continue;
    }
    const pipes = values.map((v): [string, string] => {
      const i = v.indexOf('|');
      return i === -1 ? [v, v] : [v.slice(0, i), v.slice(i + 1)];
    });
    const befores = pipes.map((p) => p[0]);
    tags.push({ type, basetype, name, options, raw_values: values, labels: [...befores], values: befores, pipes, content: (m[5] ?? '').trim() });
  }
  return tags;
}

/**
 * The value of option `name:value` (the first matching `pattern`), or undefined. Names and patterns
 * match case-insensitively, as the original's `get_option` (`/^name:pattern$/i`).
 */
export function tagOption(tag: FormTag, name: string, pattern = /^(.+)$/): string | undefined {
  const prefix = `${name.toLowerCase()}:`;
  const caseless = pattern.flags.includes('i') ? pattern : new RegExp(pattern.source, `${pattern.flags}i`);
  for (const o of tag.options) {
    if (o.slice(0, prefix.length).toLowerCase() !== prefix) continue;
    const m = caseless.exec(o.slice(prefix.length));
    if (m) return m[1];
  }
  return undefined;
}

/** Whether the tag has option `name`, alone or with a value, in any case (the original's `has_option`). */
export function hasOption(tag: FormTag, name: string): boolean {
  const lower = name.toLowerCase();
  return tag.options.some((o) => {
    const l = o.toLowerCase();
    return l === lower || (l.startsWith(`${lower}:`) && l.length > lower.length + 1);
  });
}

export function isRequired(tag: FormTag): boolean {
  return tag.type.endsWith('*');
}

/** The value mail uses for a chosen option: the part after `|` of its pipe. */
export function pipeAfter(tag: FormTag, value: string): string {
  return tag.pipes.find((p) => p[0] === value)?.[1] ?? value;
}
