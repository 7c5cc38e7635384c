import type { TextLine } from '../text/lines.js';

/**
 * The classifier's vocabulary: each feature is a plain-language cue a reviewer would also use.
 * Keyword features are 1 when the cue occurs; layout features are shares in 0..1.
 */
export const KEYWORD_FEATURES: ReadonlyArray<readonly [string, RegExp]> = [
  ['kw_kwh', /\bkwh\b|\bm3\b/i],
  ['kw_meter', /\bmeter\b/i],
  ['kw_energy', /\b(electricity|energy|gas|water|dual fuel|power)\b/i],
  ['kw_broadband', /\b(broadband|line rental|fibre|telecom|calls to)\b/i],
  ['kw_tariff', /\b(tariff|standing charge|units used|consumption)\b/i],
  ['kw_bill', /\b(your bill|bill date|date of bill|billing period|statement of charges)\b/i],
  ['kw_supply', /\b(supply address|emergency number|direct debit)\b/i],
  ['kw_statement', /\bstatement\b/i],
  ['kw_balance', /\b(opening balance|closing balance|balance)\b/i],
  ['kw_paid_in_out', /\b(paid in|paid out|debit|credit)\b/i],
  ['kw_bank_ids', /\b(sort code|iban|bic|swift|account number)\b/i],
  ['kw_card', /\b(card number|credit limit|minimum payment|credit card)\b/i],
  ['kw_bank', /\b(bank|building society|savings|overdraft|prudential regulation)\b/i],
  ['kw_tax', /\b(tax year|taxpayer|income tax|tax return|self assessment|assessment|revenue)\b/i],
  ['kw_council', /\b(council tax|council|valuation band|municipality|borough)\b/i],
  ['kw_government', /\b(government|department|ministry|official|social security|national insurance|electoral|legislation|hm )\b/i],
  ['kw_benefit', /\b(benefit|entitlement|pension credit|claim)\b/i],
  ['kw_sincerely', /\byours (sincerely|faithfully)\b/i],
  ['kw_tenancy', /\b(tenancy|lease agreement|tenant|tenants)\b/i],
  ['kw_landlord', /\b(landlord|letting|lettings|premises|property)\b/i],
  ['kw_rent_deposit', /\b(rent|deposit|per calendar month|fixed term|sublet)\b/i],
  ['kw_agreement', /\b(agreement|parties|hereby|schedule|witness)\b/i],
  ['kw_signed', /\bsigned\b/i],
  ['kw_order', /\b(order number|order date|your order|delivery|parcel|returns)\b/i],
  ['kw_item_qty', /\b(qty|quantity|item|subtotal)\b/i],
  ['kw_payslip', /\b(payslip|gross pay|net pay|employee|salary|tax code|year to date)\b/i],
  ['kw_appointment', /\b(appointment|medical|clinic|practice|reception|medication)\b/i],
  ['kw_marketing', /\b(offer|discount|promotion|exclusive|members?|newsletter|welcome)\b/i],
  ['kw_invoice', /\binvoice\b/i],
];

export const LAYOUT_FEATURES = [
  'lay_amount_lines',
  'lay_date_lines',
  'lay_numbered_clauses',
  'lay_signature_rules',
  'lay_label_pairs',
  'lay_long_prose',
] as const;

export const FEATURE_NAMES: readonly string[] = [...KEYWORD_FEATURES.map(([n]) => n), ...LAYOUT_FEATURES];

const AMOUNT = /[£$€]\s?\d[\d,]*\.\d{2}\b|\b\d[\d,]*\.\d{2}\s?(EUR|GBP|USD)\b/;
const DATE_START =
  /^\s*(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Za-z]{3,9}\s+\d{4}|[A-Za-z]{3,9}\s+\d{1,2},\s+\d{4})/;

/** Feature vector (in FEATURE_NAMES order) of a page's text lines. */
export function extractFeatures(lines: readonly TextLine[]): number[] {
  const text = lines.map((l) => l.text).join('\n');
  const n = Math.max(lines.length, 1);
  const share = (re: RegExp): number => lines.filter((l) => re.test(l.text)).length / n;
  const keywords = KEYWORD_FEATURES.map(([, re]) => (re.test(text) ? 1 : 0));
  const layout = [
    Math.min(1, share(AMOUNT) * 3),
    Math.min(1, share(DATE_START) * 3),
    Math.min(1, share(/^\s*\d{1,2}\.\s+\p{L}/u) * 4),
    /_{6,}/.test(text) ? 1 : 0,
    Math.min(1, share(/^[\p{L} ()/]{3,30}:\s+\S/u) * 4),
    Math.min(1, share(/^[\p{L}][^:]{60,}$/u) * 4),
  ];
  return [...keywords, ...layout];
}
