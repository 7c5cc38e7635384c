// V8's allocation-site pretenuring, switched off for the server and worker processes (imported first by both).
//
// Under a burst (requests queueing for seconds) V8 sees most objects of a request survive young-generation
// collections and decides, per allocation site, to allocate them in the old generation from then on. The decision
// outlives the burst: afterwards every request's short-lived objects (pg's row descriptions, SQL text, rule contexts)
// go to the old generation, where, dead but not yet collected, they keep the young objects they point to alive
// through each young collection, which then copies and promotes those too. Measured at 280 transactions/s after
// one overloaded minute (docs/performance.md, "pretenuring"): with the default, 1.2–1.3 MB stayed young after each
// collection and the old generation grew 9–10 MB/s; with pretenuring off, 0.4 MB and 3 MB/s, and the collections'
// pause per second fell from 44–52 to about 31 ms. An operator who wants V8's default back starts node with
// `--allocation-site-pretenuring`; a flag given on the command line is never overridden.
import v8 from 'node:v8';

if (!process.execArgv.some((a) => a.includes('allocation-site-pretenuring'))) v8.setFlagsFromString('--no-allocation-site-pretenuring');
