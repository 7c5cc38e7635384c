/**
 * Folds a list value to the form it is matched in, so "  John SMITH " and "john smith" are one entry.
 * Names: Unicode NFKD, diacritics removed, case folded, punctuation to spaces.
 */
export function normalizeListValue(kind: string, value: string): string {
  const v = value.trim();
  switch (kind) {
    case 'email':
      return v.toLowerCase();
    case 'phone':
      return v.replace(/[^\d+]/g, '');
    case 'wallet_address':
      // EVM addresses are case-insensitive (EIP-55 case is only a checksum); base58/bech32 are not.
      return /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : v;
    case 'document_number':
      return v.toUpperCase().replace(/[\s-]/g, '');
    case 'name':
      return v
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    default:
      return v;
  }
}
