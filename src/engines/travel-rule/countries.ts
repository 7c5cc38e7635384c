// ISO 3166-1 alpha-2 officially assigned codes (249). IVMS101 C3 also allows "XX" (country unknown),
// which is accepted by isIvmsCountryCode but is not an ISO code. Kept here rather than imported from the
// screening engine, whose index does not export its table.
const ALPHA2 = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW
BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI
FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN
IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF
PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV
SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE
YT ZA ZM ZW
`;

export const ISO_3166_ALPHA2: ReadonlySet<string> = new Set(ALPHA2.split(/\s+/).filter((c) => c.length === 2));

/** IVMS101 C3: an ISO 3166-1 alpha-2 code, or "XX" for an unknown country. */
export function isIvmsCountryCode(code: string): boolean {
  return code === 'XX' || ISO_3166_ALPHA2.has(code);
}

let byName: Map<string, string> | undefined;

/**
 * The alpha-2 code for an English country name ("United Kingdom" → "GB"), for normalising
 * counterparties that send names where codes belong. Names come from the runtime's ICU data,
 * so no name table has to be maintained here; undefined when the name is not recognised.
 */
export function countryCodeForName(name: string): string | undefined {
  if (byName === undefined) {
    byName = new Map();
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of ISO_3166_ALPHA2) {
      const n = names.of(code);
      if (n !== undefined && n !== code) byName.set(n.toLowerCase(), code);
    }
  }
  return byName.get(name.trim().toLowerCase());
}
