/**
 * @module namespaces/onboarding/currencies
 * The wizard's currency list (keys are what the client sends as `currency`).
 */
export interface Currency {
  code: string;
  symbol: string;
  entity: string;
  name: string;
}

const list: Currency[] = [
  { code: 'USD', symbol: '$', entity: '&#36;', name: 'U.S. Dollar' },
  { code: 'EUR', symbol: '€', entity: '&euro;', name: 'Euro' },
  { code: 'GBP', symbol: '£', entity: '&pound;', name: 'British Pound' },
  { code: 'JPY', symbol: '¥', entity: '&yen;', name: 'Japanese Yen' },
  { code: 'CAD', symbol: '$', entity: '&#36;', name: 'Canadian Dollar' },
  { code: 'AUD', symbol: '$', entity: '&#36;', name: 'Australian Dollar' },
  { code: 'CHF', symbol: 'CHF', entity: 'CHF', name: 'Swiss Franc' },
  { code: 'INR', symbol: '₹', entity: '&#8377;', name: 'Indian Rupee' },
  { code: 'BRL', symbol: 'R$', entity: 'R&#36;', name: 'Brazilian Real' },
  { code: 'SEK', symbol: 'kr', entity: 'kr', name: 'Swedish Krona' },
  { code: 'NOK', symbol: 'kr', entity: 'kr', name: 'Norwegian Krone' },
  { code: 'DKK', symbol: 'kr', entity: 'kr', name: 'Danish Krone' },
  { code: 'PLN', symbol: 'zł', entity: 'z&#322;', name: 'Polish Zloty' },
  { code: 'MXN', symbol: '$', entity: '&#36;', name: 'Mexican Peso' },
  { code: 'NZD', symbol: '$', entity: '&#36;', name: 'New Zealand Dollar' },
  { code: 'ZAR', symbol: 'R', entity: 'R', name: 'South African Rand' },
];

export const CURRENCIES: Readonly<Record<string, Currency>> = Object.freeze(Object.fromEntries(list.map((c) => [c.code, c])));
