// Imported first by main.ts, before anything loads React: react-dom/server
// picks its build from NODE_ENV when it is first loaded, and without it the
// development build renders every page with its extra checks, several times
// slower (the bench measured /clients at a quarter of its production
// throughput). An explicit NODE_ENV (e.g. development) is kept. The tests
// start the app without main.ts and keep React's development warnings.
if (!Deno.env.get("NODE_ENV")) Deno.env.set("NODE_ENV", "production");
