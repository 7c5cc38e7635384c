// Travel Rule thresholds per jurisdiction: below the threshold a transfer is `saved` (recorded, no message);
// at or above it the full IVMS101 message is required. The threshold applied is recorded on the message.
// Amounts are decimal strings compared as scaled BigInts, never floats.

export interface Money {
  /** Decimal string, e.g. "999.99". */
  value: string;
  currency: string;
}

export interface JurisdictionThreshold {
  jurisdiction: string;
  /** The amount at and above which the full message is required; "0" means every transfer. */
  threshold: string;
  /** Currencies the threshold is stated in; an amount in another currency must be converted first. */
  currencies: string[];
  source: string;
}

export const FATF_DEFAULT: JurisdictionThreshold = {
  jurisdiction: 'FATF',
  threshold: '1000',
  currencies: ['USD', 'EUR'],
  source: 'FATF Recommendation 16 / INR.15 para 7(b): de minimis USD/EUR 1,000 for virtual asset transfers',
};

export const THRESHOLDS: Readonly<Record<string, JurisdictionThreshold>> = {
  FATF: FATF_DEFAULT,
  EU: {
    jurisdiction: 'EU',
    threshold: '0',
    currencies: ['EUR'],
    source: 'Regulation (EU) 2023/1113 (Transfer of Funds Regulation recast), Art. 14: no threshold for crypto-asset transfers',
  },
  US: {
    jurisdiction: 'US',
    threshold: '3000',
    currencies: ['USD'],
    source: '31 CFR 1010.410(f) (FinCEN Funds Travel Rule): transmittals of USD 3,000 or more',
  },
  CH: {
    jurisdiction: 'CH',
    threshold: '1000',
    currencies: ['CHF'],
    source: 'FINMA AMLO-FINMA Art. 10 and Guidance 02/2019 as listed in the brief; to be confirmed with counsel',
  },
  SG: {
    jurisdiction: 'SG',
    threshold: '1500',
    currencies: ['SGD'],
    source: 'MAS Notice PSN02 para 13: value transfers of SGD 1,500 or more',
  },
  UK: {
    jurisdiction: 'UK',
    threshold: '1000',
    currencies: ['EUR'],
    source: 'Money Laundering Regulations 2017 Part 7A (reg. 64C-64F, as amended 2022): EUR 1,000',
  },
};

/** EU member states apply the EU regulation. */
const EU_MEMBERS = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '));

/** The threshold for a jurisdiction code (EU, US, an EU member's alpha-2 code, GB → UK); FATF default otherwise. */
export function thresholdFor(jurisdiction: string, table = THRESHOLDS): JurisdictionThreshold {
  const j = jurisdiction.toUpperCase();
  if (table[j]) return table[j];
  if (j === 'GB' && table.UK) return table.UK;
  if (EU_MEMBERS.has(j) && table.EU) return table.EU;
  return table.FATF ?? FATF_DEFAULT;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Compare two non-negative decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const ma = DECIMAL.exec(a);
  const mb = DECIMAL.exec(b);
  if (!ma || !mb) throw new RangeError(`not a non-negative decimal: ${ma ? b : a}`);
  const scale = Math.max(ma[2]?.length ?? 0, mb[2]?.length ?? 0);
  const scaled = (m: RegExpExecArray) => BigInt(m[1]! + (m[2] ?? '').padEnd(scale, '0'));
  const x = scaled(ma);
  const y = scaled(mb);
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface ThresholdDecision {
  /** 'required': send the full message; 'saved': below threshold, record only. */
  outcome: 'required' | 'saved';
  reason: 'below_threshold' | 'at_or_above_threshold' | 'no_threshold' | 'currency_not_converted';
  thresholdApplied: { jurisdiction: string; threshold: Money; source: string };
}

/**
 * Whether a transfer needs a full Travel Rule message in the jurisdiction. The amount must be the fiat
 * equivalent in one of the threshold's currencies; an amount in another currency is treated as required
 * (failing safe) rather than guessed at with a rate the engine does not have.
 */
export function decideThreshold(jurisdiction: string, amount: Money, table = THRESHOLDS): ThresholdDecision {
  const t = thresholdFor(jurisdiction, table);
  const currency = t.currencies.includes(amount.currency.toUpperCase()) ? amount.currency.toUpperCase() : t.currencies[0]!;
  const thresholdApplied = { jurisdiction: t.jurisdiction, threshold: { value: t.threshold, currency }, source: t.source };
  if (compareDecimal(t.threshold, '0') === 0) return { outcome: 'required', reason: 'no_threshold', thresholdApplied };
  if (!t.currencies.includes(amount.currency.toUpperCase())) {
    return { outcome: 'required', reason: 'currency_not_converted', thresholdApplied };
  }
  return compareDecimal(amount.value, t.threshold) < 0
    ? { outcome: 'saved', reason: 'below_threshold', thresholdApplied }
    : { outcome: 'required', reason: 'at_or_above_threshold', thresholdApplied };
}
