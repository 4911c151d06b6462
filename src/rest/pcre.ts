/**
 * @module rest/pcre
 * The `pattern` keyword: WordPress's `rest_validate_json_schema_pattern` escapes `#` and runs
 * `preg_match('#…#u', $value)`, so a schema pattern is PCRE, unanchored. {@link matchesPattern}
 * translates it once into an equivalent `u` RegExp (PCRE's `$`, `.`, `\s`, POSIX classes, inline
 * flags, named groups, `\Q…\E`, …) and caches the result; a pattern JavaScript cannot express, or
 * PCRE would reject, never matches. PHP's `u` modifier also sets PCRE2_UCP, so `\d`, `\s`, `\w`,
 * `\b` and the POSIX classes are Unicode-aware (`\w` = letters, numbers and `_`).
 *
 * @example
 * matchesPattern('^\\d+$', '12\n'); // true: PCRE's `$` also matches before a final newline
 * matchesPattern('a++', 'aa');       // false: possessive quantifiers have no JS equivalent
 */

const patternCache = new Map<string, RegExp | null>();
const PATTERN_CACHE_LIMIT = 1000;
const REGEX_SYNTAX = new Set('^$\\.*+?()[]{}|/');
const BRACE_QUANTIFIER = /^\{\d+(?:,\d*)?\}/;
/** WordPress escapes `#` for its delimiter, which turns an already escaped `\#` into an unescaped one. */
const BROKEN_DELIMITER = /(?:^|[^\\])(?:\\\\)*\\#/;
const PCRE_HSPACE = '\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000';
const PCRE_VSPACE = '\\n\\v\\f\\r\\x85\\u2028\\u2029';
/** `\s` under UCP: `\p{Z}`, `\h` and `\v`. */
const UCP_SPACE = PCRE_HSPACE + PCRE_VSPACE;
/** `\w` under UCP: `\p{L}`, `\p{N}` and underscore. */
const UCP_WORD = '\\p{L}\\p{N}_';
const WORD_BOUNDARY = `(?:(?<=[${UCP_WORD}])(?![${UCP_WORD}])|(?<![${UCP_WORD}])(?=[${UCP_WORD}]))`;
const NOT_WORD_BOUNDARY = `(?:(?<=[${UCP_WORD}])(?=[${UCP_WORD}])|(?<![${UCP_WORD}])(?![${UCP_WORD}]))`;
/** POSIX classes as PCRE2_UCP redefines them (graph, print, punct, ascii and xdigit stay ASCII here). */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '\\p{L}\\p{N}',
  alpha: '\\p{L}',
  ascii: '\\x00-\\x7f',
  blank: PCRE_HSPACE,
  cntrl: '\\p{Cc}',
  digit: '\\p{Nd}',
  graph: '!-~',
  lower: '\\p{Ll}',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: UCP_SPACE,
  upper: '\\p{Lu}',
  word: UCP_WORD,
  xdigit: '0-9A-Fa-f',
};

/**
 * Patterns whose backtracking translation takes quadratic time on long input, with a linear test of
 * the same meaning. `.*\S.*` (core's application-password `name`) matches when any character is not
 * PCRE whitespace (`\S` under UCP: not `\p{Z}`, `\h` or `\v`, so a name of no-break spaces fails).
 */
const NOT_SPACE = new RegExp(`[^${UCP_SPACE}]`, 'u');
const LINEAR_EQUIVALENTS: ReadonlyMap<string, (value: string) => boolean> = new Map([['.*\\S.*', (value: string) => NOT_SPACE.test(value)]]);

/** True when `value` matches the PCRE `pattern` the way `preg_match('#…#u')` does; a bad pattern never matches. */
export function matchesPattern(pattern: string, value: string): boolean {
  const linear = LINEAR_EQUIVALENTS.get(pattern);
  if (linear) return linear(value);
  let re = patternCache.get(pattern);
  if (re === undefined) {
    re = BROKEN_DELIMITER.test(pattern) ? null : translatePcre(pattern);
    if (patternCache.size >= PATTERN_CACHE_LIMIT) patternCache.clear();
    patternCache.set(pattern, re);
  }
  return re !== null && re.test(value);
}

function escapeLiteral(ch: string, inClass: boolean): string {
  return REGEX_SYNTAX.has(ch) || (inClass && ch === '-') ? '\\' + ch : ch;
}

/** Translate a PCRE pattern into an equivalent `u` RegExp; null where JS has no equivalent or PCRE would fail. */
function translatePcre(pattern: string): RegExp | null {
  let flags = 'u';
  let i = 0;
  const lead = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (lead) {
    for (const f of lead[1]!) {
      if (f !== 'i' && f !== 'm' && f !== 's') return null;
      if (!flags.includes(f)) flags += f;
    }
    i = lead[0].length;
  }
  const dotAll = flags.includes('s');
  const multiline = flags.includes('m');

  let out = '';
  let inClass = false;
  let classStart = false;
  let afterQuantifier = false;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const escape = translateEscape(pattern, i + 1, inClass);
      if (escape === null) return null;
      out += escape.text;
      i = escape.next;
      classStart = afterQuantifier = false;
      continue;
    }
    if (inClass) {
      if (c === ']' && !classStart) {
        inClass = false;
        out += ']';
      } else if (c === '[' && pattern[i + 1] === ':') {
        const end = pattern.indexOf(':]', i + 2);
        const expansion = end < 0 ? undefined : POSIX_CLASSES[pattern.slice(i + 2, end)];
        if (expansion === undefined) return null;
        out += expansion;
        i = end + 1;
      } else {
        out += c === '[' || c === ']' ? '\\' + c : c;
      }
      classStart = false;
      i++;
      continue;
    }
    switch (c) {
      case '[':
        inClass = classStart = true;
        out += '[';
        if (pattern[i + 1] === '^') {
          out += '^';
          i++;
        }
        break;
      case '.':
        out += dotAll ? '.' : '[^\\n]';
        break;
      case '$':
        // PCRE's `$` also matches before a final newline.
        out += multiline ? '$' : '(?=\\n?(?![\\s\\S]))';
        break;
      case '(': {
        const group = translateGroupOpen(pattern, i);
        if (group === null) return null;
        out += group.text;
        i = group.next;
        afterQuantifier = false;
        continue;
      }
      case '*':
      case '+':
      case '?':
        if (afterQuantifier) {
          if (c === '+') return null; // possessive
          out += c;
          afterQuantifier = false;
          i++;
          continue;
        }
        out += c;
        afterQuantifier = true;
        i++;
        continue;
      case '{': {
        const m = BRACE_QUANTIFIER.exec(pattern.slice(i, i + 24));
        if (m) {
          out += m[0];
          i += m[0].length;
          afterQuantifier = true;
          continue;
        }
        out += '\\{';
        break;
      }
      case '}':
      case ']':
        out += '\\' + c;
        break;
      default:
        out += c;
    }
    afterQuantifier = false;
    i++;
  }
  try {
    return new RegExp(out, flags);
  } catch {
    return null;
  }
}

function translateGroupOpen(pattern: string, i: number): { text: string; next: number } | null {
  if (pattern[i + 1] !== '?') return { text: '(', next: i + 1 };
  const kind = pattern[i + 2];
  switch (kind) {
    case ':':
    case '=':
    case '!':
      return { text: `(?${kind}`, next: i + 3 };
    case '#': {
      const end = pattern.indexOf(')', i);
      return end < 0 ? null : { text: '', next: end + 1 };
    }
    case '<': {
      const after = pattern[i + 3];
      if (after === '=' || after === '!') return { text: `(?<${after}`, next: i + 4 };
      return { text: '(?<', next: i + 3 };
    }
    case 'P': {
      if (pattern[i + 3] === '<') return { text: '(?<', next: i + 4 };
      if (pattern[i + 3] === '=') {
        const end = pattern.indexOf(')', i);
        return end < 0 ? null : { text: `\\k<${pattern.slice(i + 4, end)}>`, next: end + 1 };
      }
      return null;
    }
    case "'": {
      const end = pattern.indexOf("'", i + 3);
      return end < 0 ? null : { text: `(?<${pattern.slice(i + 3, end)}>`, next: end + 1 };
    }
    default:
      return null; // atomic groups, recursion, inline options mid-pattern, branch reset
  }
}

function translateEscape(pattern: string, j: number, inClass: boolean): { text: string; next: number } | null {
  const n = pattern[j];
  if (n === undefined) return null;
  const at = (text: string, next = j + 1) => ({ text, next });
  switch (n) {
    case 'n': case 'r': case 't': case 'f':
      return at('\\' + n);
    case 'd':
      return at('\\p{Nd}');
    case 'D':
      return at('\\P{Nd}');
    case 'w':
      return at(inClass ? UCP_WORD : `[${UCP_WORD}]`);
    case 'W':
      // CASE: a class cannot hold a negated set without the `v` flag; inside one, JavaScript's ASCII `\W` stands in.
      return at(inClass ? '\\W' : `[^${UCP_WORD}]`);
    case 'b':
      return at(inClass ? '\\b' : WORD_BOUNDARY);
    case 'B':
      return inClass ? null : at(NOT_WORD_BOUNDARY);
    case 's':
      return at(inClass ? UCP_SPACE : `[${UCP_SPACE}]`);
    case 'S':
      return at(inClass ? '\\S' : `[^${UCP_SPACE}]`);
    case 'h':
      return at(inClass ? PCRE_HSPACE : `[${PCRE_HSPACE}]`);
    case 'v':
      return at(inClass ? PCRE_VSPACE : `[${PCRE_VSPACE}]`);
    case 'H':
      return inClass ? null : at(`[^${PCRE_HSPACE}]`);
    case 'V':
      return inClass ? null : at(`[^${PCRE_VSPACE}]`);
    case 'R':
      return inClass ? null : at(`(?:\\r\\n|[${PCRE_VSPACE}])`);
    case 'A':
      return inClass ? null : at('(?<![\\s\\S])');
    case 'z':
      return inClass ? null : at('(?![\\s\\S])');
    case 'Z':
      return inClass ? null : at('(?=\\n?(?![\\s\\S]))');
    case 'e':
      return at('\\x1b');
    case 'a':
      return at('\\x07');
    case 'E':
      return at('');
    case 'c': {
      const letter = pattern[j + 1];
      return letter && /[a-zA-Z]/.test(letter) ? at('\\c' + letter.toUpperCase(), j + 2) : null;
    }
    case 'x': {
      if (pattern[j + 1] === '{') {
        const end = pattern.indexOf('}', j + 2);
        const hex = end < 0 ? '' : pattern.slice(j + 2, end);
        return /^[0-9a-fA-F]{1,6}$/.test(hex) ? at(`\\u{${hex}}`, end + 1) : null;
      }
      const hex = /^[0-9a-fA-F]{0,2}/.exec(pattern.slice(j + 1, j + 3))![0];
      return at(`\\u{${hex || '0'}}`, j + 1 + hex.length);
    }
    case 'o': {
      const end = pattern.indexOf('}', j + 2);
      const oct = pattern[j + 1] === '{' && end > 0 ? pattern.slice(j + 2, end) : '';
      return /^[0-7]{1,8}$/.test(oct) ? at(`\\u{${parseInt(oct, 8).toString(16)}}`, end + 1) : null;
    }
    case '0': {
      const oct = /^[0-7]{0,2}/.exec(pattern.slice(j + 1, j + 3))![0];
      return at(`\\u{${parseInt('0' + oct, 8).toString(16)}}`, j + 1 + oct.length);
    }
    case 'p':
    case 'P':
      return translateProperty(pattern, j, n);
    case 'k': {
      const open = pattern[j + 1];
      const close = open === '<' ? '>' : open === "'" ? "'" : open === '{' ? '}' : '';
      const end = close ? pattern.indexOf(close, j + 2) : -1;
      return end < 0 ? null : at(`\\k<${pattern.slice(j + 2, end)}>`, end + 1);
    }
    case 'g': {
      const m = /^g(?:\{(\d+|[A-Za-z_]\w*)\}|(\d+))/.exec(pattern.slice(j));
      if (!m) return null;
      const ref = m[1] ?? m[2]!;
      return at(/^\d/.test(ref) ? `\\${ref}` : `\\k<${ref}>`, j + m[0].length);
    }
    case 'Q': {
      const end = pattern.indexOf('\\E', j + 1);
      const quoted = pattern.slice(j + 1, end < 0 ? pattern.length : end);
      return at(Array.from(quoted, (ch) => escapeLiteral(ch, inClass)).join(''), end < 0 ? pattern.length : end + 2);
    }
  }
  if (n >= '1' && n <= '9') {
    const digits = /^\d+/.exec(pattern.slice(j))![0];
    return inClass ? null : at('\\' + digits, j + digits.length);
  }
  // PCRE2 rejects unknown letter escapes; any other escaped character is itself.
  if (/[A-Za-z]/.test(n)) return null;
  const ch = String.fromCodePoint(pattern.codePointAt(j)!);
  return at(escapeLiteral(ch, inClass), j + ch.length);
}

function translateProperty(pattern: string, j: number, n: string): { text: string; next: number } | null {
  let name: string;
  let next: number;
  if (pattern[j + 1] === '{') {
    const end = pattern.indexOf('}', j + 2);
    if (end < 0) return null;
    name = pattern.slice(j + 2, end);
    next = end + 1;
  } else {
    name = pattern[j + 1] ?? '';
    next = j + 2;
  }
  let negate = n === 'P';
  if (name.startsWith('^')) {
    negate = !negate;
    name = name.slice(1);
  }
  if (name === 'L&') name = 'LC';
  if (!/^[A-Za-z_]+$/.test(name)) return null;
  const property = name.length <= 2 ? name : `Script=${name}`;
  return { text: `\\${negate ? 'P' : 'p'}{${property}}`, next };
}
