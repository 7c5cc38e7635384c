import type { ListSource } from './list-source.js';
import { ofacCsvSource } from './ofac-csv.js';
import { unXmlSource } from './un-xml.js';
import { euFsfXmlSource } from './eu-fsf-xml.js';
import { ukCsvSource } from './uk-csv.js';
import { ftmJsonSource } from './ftm-json.js';
import { customCsvSource } from './custom-csv.js';
import { ofacAdvancedXmlSource } from './ofac-advanced-xml.js';
import { senzingJsonSource } from './senzing-json.js';

/** `lists import FILE --format <name>`: every importable list format by name. */
export const listFormats: Readonly<Record<string, ListSource>> = Object.freeze({
  ofac_csv: ofacCsvSource,
  ofac_advanced_xml: ofacAdvancedXmlSource,
  un_xml: unXmlSource,
  eu_fsf_xml: euFsfXmlSource,
  uk_csv: ukCsvSource,
  ftm_json: ftmJsonSource,
  senzing_json: senzingJsonSource,
  custom_csv: customCsvSource,
});

export function listFormat(name: string): ListSource {
  const f = listFormats[name];
  if (!f) throw new Error(`unknown list format "${name}"; known: ${Object.keys(listFormats).join(', ')}`);
  return f;
}
