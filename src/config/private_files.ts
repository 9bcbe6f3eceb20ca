import { join } from "node:path";

// DATA_DIR holds the embedded database and the secret key: nobody but the
// app's own user may read them. PGlite's NODEFS writes the files initdb makes
// with mode 0666 (it sets the mode itself, so the umask does not help), and a
// restart recreates a few as 0644; hence a chmod after the database opens, and
// directories made 0700 so nothing inside is reachable even in between.

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const supported = Deno.build.os !== "windows";

/**
 * Creates `path` (and parents) if needed and makes it 0700. A directory the
 * operator made and another user owns cannot be changed: that is said once,
 * and what the app puts inside is still private.
 */
export async function ensurePrivateDir(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: PRIVATE_DIR });
  if (!supported) return;
  try {
    await restrict(path, PRIVATE_DIR);
  } catch (err) {
    if (!(err instanceof Deno.errors.PermissionDenied)) throw err;
    console.warn(`Could not make ${path} private (mode 0700): ${err.message}`);
  }
}

/** Makes a file 0600 (when it is not already as strict). */
export async function restrictFile(path: string): Promise<void> {
  if (supported) await restrict(path, PRIVATE_FILE);
}

/** Every directory under `root` 0700 and every file 0600; symbolic links are left alone. */
export async function restrictTree(root: string): Promise<void> {
  if (!supported) return;
  await restrict(root, PRIVATE_DIR);
  for await (const entry of Deno.readDir(root)) {
    const path = join(root, entry.name);
    if (entry.isDirectory) await restrictTree(path);
    else if (entry.isFile) await restrict(path, PRIVATE_FILE);
  }
}

async function restrict(path: string, mode: number): Promise<void> {
  const current = (await Deno.lstat(path)).mode;
  if (current !== null && (current & 0o777 & ~mode) === 0) return;
  await Deno.chmod(path, mode);
}
