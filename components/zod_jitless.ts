// zod 4 compiles a fast object parser with `new Function` after probing
// whether it may (`new F("")` in a try). The page CSP has no 'unsafe-eval', so
// the probe fails quietly, but the browser still reports a CSP violation,
// which costs the builder 4 Lighthouse best-practices points. jitless skips
// the probe and the compiler. It must be set before any schema is built (zod
// reads it when a z.object is made), and the browser entry must not load zod
// itself (the tablet pages ship none), so it goes in zod's shared config
// object (what z.config({ jitless: true }) writes) before zod is loaded;
// tests/unit/zod_jitless_test.ts holds zod to reading it from there.
declare global {
  var __zod_globalConfig: Record<string, unknown> | undefined;
}

globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

export {};
