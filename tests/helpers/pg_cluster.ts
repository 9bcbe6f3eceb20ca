// A throwaway PostgreSQL server for the fault tests: its own cluster (initdb)
// in a temporary folder, on its own port, from the machine's PostgreSQL
// binaries, so a test may terminate its connections, stop it, restart it or
// kill it without touching the server the rest of the suite uses.
import { join } from "node:path";
import { deadPort } from "./smtp.ts";

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  adminUrl: string;
  port: number;
  /** A URL for database `name` on this server. */
  urlFor(name: string): string;
  /** Runs SQL as the superuser through psql; stdout. */
  psql(sql: string, database?: string): Promise<string>;
  start(): Promise<void>;
  /** pg_ctl stop -m fast|immediate (waits until it is down). */
  stop(mode: "fast" | "immediate"): Promise<void>;
  /** Ends the server, whatever state it is in, and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of initdb/pg_ctl/postgres, or undefined when the machine has none. */
export function postgresBinDir(): string | undefined {
  const candidates: string[] = [];
  try {
    for (const entry of Deno.readDirSync("/usr/lib/postgresql")) {
      candidates.push(join("/usr/lib/postgresql", entry.name, "bin"));
    }
  } catch {
    // not a Debian layout
  }
  candidates.sort().reverse();
  return candidates.find((dir) => {
    try {
      return Deno.statSync(join(dir, "initdb")).isFile && Deno.statSync(join(dir, "pg_ctl")).isFile;
    } catch {
      return false;
    }
  });
}

/** The `skip` of a file that needs a throwaway cluster: a reason, or false. */
export function clusterSkip(): false | string {
  if (!postgresBinDir()) {
    return "needs PostgreSQL's server binaries (Debian: apt-get install postgresql)";
  }
  if (Deno.uid() === 0 && !userExists("postgres")) {
    return "runs as root: needs a postgres user to own the throwaway cluster";
  }
  return false;
}

function userExists(name: string): boolean {
  try {
    return Deno.readTextFileSync("/etc/passwd").split("\n").some((l) => l.startsWith(`${name}:`));
  } catch {
    return false;
  }
}

/** initdb and PostgreSQL refuse root: as root, the cluster runs as the postgres user. */
function asOwner(bin: string, args: string[]): Deno.Command {
  if (Deno.uid() === 0) {
    return new Deno.Command("runuser", {
      args: ["-u", "postgres", "--", bin, ...args],
      stdout: "piped",
      stderr: "piped",
    });
  }
  return new Deno.Command(bin, { args, stdout: "piped", stderr: "piped" });
}

async function run(cmd: Deno.Command, what: string): Promise<string> {
  const out = await cmd.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${what} failed: ${new TextDecoder().decode(out.stderr)}${text}`);
  }
  return text;
}

/** A new cluster, initialised and started. */
export async function startPgCluster(
  settings: Record<string, string> = {},
): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("no PostgreSQL server binaries on this machine");
  const root = await Deno.makeTempDir({ prefix: "lensdesk-pgcluster-" });
  const data = join(root, "data");
  const log = join(root, "server.log");
  if (Deno.uid() === 0) {
    await run(new Deno.Command("chown", { args: ["postgres:postgres", root] }), "chown");
  }
  await run(
    asOwner(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
    "initdb",
  );
  const port = deadPort();
  const options = {
    port: String(port),
    listen_addresses: "127.0.0.1",
    unix_socket_directories: root,
    // A test server: what is lost in a crash of the machine does not matter,
    // what is lost in a crash of the server (immediate stop) is recovered from WAL.
    fsync: "off",
    max_connections: "60",
    ...settings,
  };
  const optionText = Object.entries(options).map(([k, v]) => `-c ${k}=${v}`).join(" ");
  const pgCtl = join(bin, "pg_ctl");
  const urlFor = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const cluster: PgCluster = {
    adminUrl: urlFor("postgres"),
    port,
    urlFor,
    async psql(sql, database = "postgres") {
      return await run(
        new Deno.Command(join(bin, "psql"), {
          args: ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", urlFor(database), "-c", sql],
          stdout: "piped",
          stderr: "piped",
        }),
        `psql ${sql}`,
      );
    },
    async start() {
      await run(
        asOwner(pgCtl, ["-D", data, "-l", log, "-o", optionText, "-w", "-t", "60", "start"]),
        "pg_ctl start",
      );
    },
    async stop(mode) {
      await run(asOwner(pgCtl, ["-D", data, "-m", mode, "-w", "-t", "60", "stop"]), "pg_ctl stop");
    },
    async destroy() {
      await asOwner(pgCtl, ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]).output()
        .catch(() => {});
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
  try {
    await cluster.start();
  } catch (err) {
    await cluster.destroy();
    throw err;
  }
  return cluster;
}
