// The public face of src/modules/transactions: other modules import only what is exported here.
export { transactionsModule } from './routes.js';
