import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { listFormats, listFormat } from './formats.js';
import { sandboxList, SANDBOX_ENTITIES } from './sandbox-list.js';
import { parseXml } from './xml.js';
import { readListInput } from './list-files.js';
import { sharedData, SKIP_NO_DATA } from './fixtures/shared-data.js';

describe('list formats registry and sandbox list', () => {
  test('every --format name resolves to a parser with the same name', () => {
    for (const [name, src] of Object.entries(listFormats)) assert.equal(src.name, name);
    assert.deepEqual(Object.keys(listFormats.ofac_csv!.officialUrl as Record<string, string>), [
      'sdn.csv',
      'add.csv',
      'alt.csv',
      'sdn_comments.csv',
    ]);
    assert.deepEqual(Object.keys(listFormats).sort(), [
      'custom_csv',
      'eu_fsf_xml',
      'ftm_json',
      'ofac_advanced_xml',
      'ofac_csv',
      'senzing_json',
      'uk_csv',
      'un_xml',
    ]);
    assert.throws(() => listFormat('nope'), /unknown list format/);
  });

  test('sandbox list covers sanctions, PEP and adverse media and is copied on each call', () => {
    const l = sandboxList();
    for (const d of ['sanctions', 'pep', 'adverse_media'] as const) assert.ok(l.some((e) => e.datasets.includes(d)));
    l[0]!.names.length = 0;
    assert.ok(SANDBOX_ENTITIES[0]!.names.length > 0);
  });

  test('a directory is read as a map of its list files', (t) => {
    const dir = sharedData('sanctions', 'ofac_sdn_csv_mini');
    if (!dir) return t.skip(SKIP_NO_DATA);
    const input = readListInput(dir) as Record<string, Uint8Array>;
    assert.ok('sdn.csv' in input && 'alt.csv' in input);
    assert.ok(
      listFormat('ofac_csv')
        .parse(input)
        .some((e) => e.id === 'ofac-sdn:48603'),
    );
  });

  test('xml reader: entities, CDATA, namespaces; unbalanced input throws', () => {
    const x = parseXml('<?xml version="1.0"?><a:root xmlns:a="x"><b k="1 &amp; 2">t&#233;<![CDATA[<raw>]]></b></a:root>');
    assert.equal(x.name, 'root');
    assert.equal(x.children[0]!.attrs.k, '1 & 2');
    assert.equal(x.children[0]!.text, 'té<raw>');
    assert.throws(() => parseXml('<a><b></a>'), /XML/);
    assert.throws(() => parseXml('<a><b>'), /XML/);
  });
});
