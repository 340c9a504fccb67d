/**
 * Node's own flags for a server process: `npm start` runs server/dist/main.js with them, README's
 * production section shows them, and bench:class runs its app with them (`--plain-node`: without).
 *
 * `--max-semi-space-size=64` (MB; V8's default is 16): where V8 allocates new objects, and collects
 * them by copying what is still alive ("scavenges"). A reply in progress keeps its request, its
 * stream and its timers alive across many of them, so with a class's replies at once most of what a
 * scavenge finds is alive and copied, and a small young generation fills again within milliseconds.
 * At 300 at once on PostgreSQL (bench:class, 2 cores): 21–22 scavenges a burst and 73–84 ms of the
 * main thread with the default, 5–6 and 36–50 ms with 64; the first words' p95 above the model's own
 * +319 ms against +385 (the means of five runs' medians of 3 bursts, run each way in turns). V8
 * grows the young generation towards it only while a scavenge finds much alive: at rest 25 s after
 * its start the server's RSS was the same either way (688–704 MB with the embedded database, two
 * starts each), and at a burst's peak ~60 MB larger.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
