/**
 * @module namespaces/events/cost
 * Event costs as the calendar handles them: the currency symbol and its position are read out of the
 * text (`"$20"` → `$`, prefix; `"20€"` → `€`, postfix), numbers become ascending numeric strings, and
 * the display cost is built back from them (`"$5"`, `"Free"`, `"Free – $30"`).
 */

/** Parsed cost input. */
export interface ParsedCost {
  /** What was entered (several values joined with `, `). */
  text: string;
  /** Ascending, unique numeric strings. */
  values: string[];
  symbol: string;
  position: '' | 'prefix' | 'postfix';
  code: string;
}

/** The currency of a cost entered with numbers but no symbol (the calendar's default currency settings). */
export interface CurrencyDefaults {
  symbol: string;
  code: string;
  position: 'prefix' | 'postfix';
}

/** The settings' own defaults. */
export const DEFAULT_CURRENCY: CurrencyDefaults = Object.freeze({ symbol: '$', position: 'prefix', code: 'USD' });

/** The site's default currency of event costs (`defaultCurrencySymbol`, `defaultCurrencyCode`). */
export async function siteCurrency(options: { get<T>(name: string, fallback?: T): Promise<T> }): Promise<CurrencyDefaults> {
  const symbol = await options.get<unknown>('defaultCurrencySymbol', DEFAULT_CURRENCY.symbol);
  const code = await options.get<unknown>('defaultCurrencyCode', DEFAULT_CURRENCY.code);
  return {
    symbol: typeof symbol === 'string' && symbol.trim() !== '' ? symbol.trim() : DEFAULT_CURRENCY.symbol,
    code: typeof code === 'string' && /^[A-Z]{3}$/.test(code) ? code : DEFAULT_CURRENCY.code,
    position: DEFAULT_CURRENCY.position,
  };
}

const CODES: Record<string, string> = {
  $: 'USD', US$: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', R$: 'BRL', 'C$': 'CAD', A$: 'AUD', CHF: 'CHF',
  kr: 'SEK', 'zł': 'PLN', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '₫': 'VND', '฿': 'THB', R: 'ZAR',
};

/** A number as written: digits with `.` or `,` between them (`5`, `1,200`, `5,50`, `1.234,5`). */
const NUMBER = /\d(?:[\d.,]*\d)?/g;

/**
 * The value of a number as written, its separators read as the original's Cost_Utils::parse_separators
 * does: with both `.` and `,` the last one is the decimal separator; with one of them, it is the decimal
 * separator unless exactly three digits follow it (then the site locale's: `.` decimal, `,` thousands).
 */
function numericString(raw: string): string {
  const separators = raw.match(/[.,]/g) ?? [];
  let decimal = '.';
  if (new Set(separators).size > 1) decimal = separators[separators.length - 1]!;
  else if (separators.length > 0 && raw.length - raw.lastIndexOf(separators[0]!) - 1 !== 3) decimal = separators[0]!;
  const n = Number(raw.split(decimal === '.' ? ',' : '.').join('').replace(decimal, '.'));
  return Number.isFinite(n) ? String(n) : raw;
}

/** Parses a cost given as text or a list of texts; numbers without a symbol are in `defaults`. */
export function parseCost(input: unknown, defaults: CurrencyDefaults = DEFAULT_CURRENCY): ParsedCost {
  const items = (Array.isArray(input) ? input : [input]).map((v) => (v === null || v === undefined ? '' : String(v)).trim()).filter((v) => v !== '');
  const text = items.join(', ');
  const values = new Set<string>();
  let symbol = '';
  let position: ParsedCost['position'] = '';
  for (const item of items) {
    const numbers = item.match(NUMBER) ?? [];
    if (numbers.length === 0 && /\bfree\b/i.test(item)) values.add('0');
    for (const n of numbers) values.add(numericString(n));
    if (symbol === '' && numbers.length > 0) {
      const before = item.slice(0, item.search(/\d/)).replace(/[\s-]+$/, '').trim();
      const lastDigit = item.search(/\d[^\d]*$/);
      const after = item.slice(lastDigit + 1).replace(/^[\d.,]*/, '').trim();
      if (before !== '' && !/^(from|free)$/i.test(before)) {
        symbol = before;
        position = 'prefix';
      } else if (after !== '' && !/^[-–]/.test(after)) {
        symbol = after.split(/\s/)[0]!;
        position = 'postfix';
      }
    }
  }
  const sorted = [...values].sort((a, b) => Number(a) - Number(b));
  if (sorted.length > 0 && symbol === '') {
    symbol = defaults.symbol;
    position = defaults.position;
  }
  // The site's own symbol means its code (`$` is also Canadian or Australian dollars).
  const code = symbol === '' ? '' : symbol === defaults.symbol ? defaults.code : (CODES[symbol] ?? (/^[A-Z]{3}$/.test(symbol) ? symbol : defaults.code));
  return { text, values: sorted, symbol, position, code };
}

function formatOne(value: string, symbol: string, position: string): string {
  if (Number(value) === 0) return 'Free';
  if (symbol === '') return value;
  return position === 'postfix' ? `${value}${symbol}` : `${symbol}${value}`;
}

/** The display cost: `""` without cost, the text when it has no number, else one value or a range. */
export function displayCost(text: string, values: readonly string[], symbol: string, position: string): string {
  if (values.length === 0) return text;
  const min = values[0]!;
  const max = values[values.length - 1]!;
  if (values.length === 1 || Number(min) === Number(max)) return formatOne(min, symbol, position);
  return `${formatOne(min, symbol, position)} – ${formatOne(max, symbol, position)}`;
}
