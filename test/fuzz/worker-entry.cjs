// Worker threads do not take the parent's TypeScript loader: register tsx here, then run the worker.
require('tsx/cjs');
require('./worker.ts');
