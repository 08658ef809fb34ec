import { describeStoreContract } from './contract';

// The server the whole suite runs on (the embedded default, or MONGODB_URI).
describeStoreContract('store contract (the MongoDB semantics our code relies on)', () => process.env.MONGODB_URI);
