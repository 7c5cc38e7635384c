// The public face of src/modules/transactions: other modules import only what is exported here.
export { transactionsModule } from './routes.js';
export { rulesBacktestModule } from './backtest-routes.js';
export { backtestJobHandlers, runBacktest } from './backtest.js';
export { importTransactions } from './import-transactions.js';
export { runTransactionsImport, TRANSACTIONS_USAGE } from './import-cli.js';
export { TRANSACTION_EVENTS } from './events.js';
export { derivedIndexJobHandlers, TRANSACTIONS_RECURRING } from './derived-indexes.js';
