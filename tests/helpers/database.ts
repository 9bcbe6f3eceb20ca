import postgres from "postgres";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: throwaway PGlite by default, or a
 * freshly created database on the server named by TEST_DATABASE_URL, dropped
 * afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!serverUrl) return { url: "memory://", drop: () => Promise.resolve() };
  const name = `lensdesk_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
