// The public face of src/modules/wallets: other modules import only what is exported here.
export { walletsModule } from './routes.js';
export { walletJobHandlers, WALLETS_RECURRING } from './jobs.js';
// For KYT: the `wallet` rule context of an address, and crypto transactions as known transfers.
export { latestWalletScreening, type WalletRuleContext } from './latest.js';
export { recordKnownTransfers } from './imports.js';
export { WALLETS_USAGE, runWalletsCommand } from './cli.js';
export { WALLET_EVENTS } from './events.js';
// For Travel Rule: the full screening of a message's addresses, summarised, not stored or billed.
export { screenAddressFor, type AddressScreening } from './screen-address.js';
export { chainDataSchedule, pollChainData } from './chain-data.js';
export { walletsConfig, type WalletsConfig } from './config.js';
// The process's wallet indexes and policy cache, a resource (platform/resources.ts).
export { WALLET_INDEXES, type WalletIndexes } from './indexes.js';
