// Prints "PASSED FAILED" for a Deno JUnit report, counting only leaf test
// cases: a describe() block is listed beside its it() steps and must not be
// counted twice.
const xml = await Deno.readTextFile(Deno.args[0]);
const cases = [...xml.matchAll(/<testcase name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)].map((
  m,
) => ({
  name: m[1],
  failed: /<failure|<error/.test(m[2]),
}));
const names = cases.map((c) => c.name);
const leaves = cases.filter((c) => !names.some((n) => n.startsWith(c.name + " &gt; ")));
const failed = leaves.filter((c) => c.failed).length;
console.log(`${leaves.length - failed} ${failed}`);
