// Shared shapes of the wallet engine. Chain ids are our own stable names; OFAC's currency codes
// (XBT, ETH, USDT …) are aliases resolved by the chain registry.

export type ChainFamily = 'utxo' | 'evm' | 'tron' | 'xrp' | 'monero';

export type AddressKind =
  | 'p2pkh'
  | 'p2sh'
  | 'segwit'
  | 'cashaddr-p2pkh'
  | 'cashaddr-p2sh'
  | 'account'
  | 'monero-standard'
  | 'monero-subaddress'
  | 'monero-integrated';

export type ChecksumState = 'valid' | 'absent' | 'invalid';

export interface ParsedAddress {
  chain: string;
  family: ChainFamily;
  kind: AddressKind;
  /** The input as given (trimmed). */
  input: string;
  /** Canonical spelling: lower-case hex for EVM, lower-case bech32/CashAddr with prefix, base58 as is. */
  normalized: string;
  /**
   * Every lookup key this address is known under: the normalised form, plus equivalents on the
   * same chain (a Bitcoin Cash CashAddr and its legacy base58 form hash to the same key holder).
   */
  keys: string[];
  /** EIP-55 state for EVM; `valid` for formats whose checksum is mandatory and was verified. */
  checksum: ChecksumState;
  /** Decoded payload as hex (hash160, witness program, public keys …). */
  payloadHex: string;
}

export type AddressErrorReason =
  | 'empty'
  | 'bad_character'
  | 'bad_checksum'
  | 'wrong_length'
  | 'unknown_prefix'
  | 'wrong_witness_version'
  | 'mixed_case'
  | 'unknown_chain'
  | 'not_an_address';

export class AddressError extends Error {
  constructor(
    readonly reason: AddressErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'AddressError';
  }
}
