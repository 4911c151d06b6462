/**
 * @module namespaces/onboarding/currencies
 * The wizard's currency list, keyed as the original's (`Onboarding\Data::get_currency_list`): the
 * wizard posts the key (`usd`, `euro`, `cny2`, …), not the code, and the settings step stores the entry's
 * code and symbol. Two keys may share a code (`cny`, `cny2`).
 */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  entity: string;
}

export const CURRENCIES: Readonly<Record<string, Currency>> = Object.freeze({
  aud: { code: 'AUD', name: 'Australian Dollar', symbol: '$', entity: '&#36;' },
  brl: { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', entity: 'R&#36;' },
  gbp: { code: 'GBP', name: 'British Pound', symbol: '£', entity: '&pound;' },
  cad: { code: 'CAD', name: 'Canadian Dollar', symbol: '$', entity: '&#36;' },
  cny: { code: 'CNY', name: 'Chinese Yen (¥)', symbol: '¥', entity: '&yen;' },
  cny2: { code: 'CNY', name: 'Chinese Yuan (元)', symbol: '元', entity: '&#20803;' },
  czk: { code: 'CZK', name: 'Czech Koruna', symbol: 'Kč', entity: 'K&#x10D;' },
  dkk: { code: 'DKK', name: 'Danish Krone', symbol: 'kr.', entity: 'kr.' },
  euro: { code: 'EUR', name: 'Euro', symbol: '€', entity: '&euro;' },
  hkd: { code: 'HKD', name: 'Hong Kong Dollar', symbol: '$', entity: '&#36;' },
  huf: { code: 'HUF', name: 'Hungarian Forint', symbol: 'Ft', entity: 'Ft' },
  inr: { code: 'INR', name: 'Indian Rupee', symbol: '₹', entity: '&#x20B9;' },
  idr: { code: 'IDR', name: 'Indonesian Rupiah', symbol: 'Rp', entity: 'Rp' },
  ils: { code: 'ILS', name: 'Israeli New Sheqel', symbol: '₪', entity: '&#x20AA;' },
  jpy: { code: 'JPY', name: 'Japanese Yen', symbol: '¥', entity: '&yen;' },
  krw: { code: 'KRW', name: 'Korean Won', symbol: '₩', entity: '&#8361;' },
  myr: { code: 'MYR', name: 'Malaysian Ringgit', symbol: 'RM', entity: 'RM' },
  mxn: { code: 'MXN', name: 'Mexican Peso', symbol: '$', entity: '&#36;' },
  ngn: { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', entity: '&#8358;' },
  nzd: { code: 'NZD', name: 'New Zealand Dollar', symbol: '$', entity: '&#36;' },
  nok: { code: 'NOK', name: 'Norwegian Krone', symbol: 'kr', entity: 'kr' },
  php: { code: 'PHP', name: 'Philippine Peso', symbol: '₱', entity: '&#x20B1;' },
  pln: { code: 'PLN', name: 'Polish Złoty', symbol: 'zł', entity: 'z&#x142;' },
  rub: { code: 'RUB', name: 'Russian Ruble', symbol: '₽', entity: '&#8381;' },
  sek: { code: 'SEK', name: 'Swedish Krona', symbol: 'kr', entity: 'kr' },
  sgd: { code: 'SGD', name: 'Singapore Dollar', symbol: '$', entity: '&#36;' },
  zar: { code: 'ZAR', name: 'South African Rand', symbol: 'R', entity: 'R' },
  chf: { code: 'CHF', name: 'Swiss Franc', symbol: 'Fr', entity: 'Fr' },
  twd: { code: 'TWD', name: 'Taiwan New Dollar', symbol: '$', entity: '&#36;' },
  thb: { code: 'THB', name: 'Thai Baht', symbol: '฿', entity: '&#x0E3F;' },
  trl: { code: 'TRL', name: 'Turkish Lira', symbol: '₺', entity: '&#8378;' },
  usd: { code: 'USD', name: 'US Dollar', symbol: '$', entity: '&#36;' },
  usdcent: { code: 'USDCENT', name: 'US Cent', symbol: '¢', entity: '&cent;' },
  vnd: { code: 'VND', name: 'Vietnamese Dong', symbol: '₫', entity: '&#8363;' },
});

/** The entry for a posted currency key (keys only: `EUR` or `eur` is no key, `euro` is). */
export function currencyByKey(key: unknown): Currency | undefined {
  return typeof key === 'string' && Object.hasOwn(CURRENCIES, key) ? CURRENCIES[key] : undefined;
}

/**
 * The key the wizard preselects for a stored currency code: the lowercased code when that is a key
 * (as the original preselects), else the first key with that code (`EUR` → `euro`), else `usd`.
 */
export function currencyKeyOf(code: unknown): string {
  const text = typeof code === 'string' ? code : '';
  if (Object.hasOwn(CURRENCIES, text.toLowerCase())) return text.toLowerCase();
  return Object.keys(CURRENCIES).find((key) => CURRENCIES[key]!.code === text) ?? 'usd';
}
