// @ts-types="@types/smtp-server"
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** What startSmtpServer gives: its port, what it received, and close(). */
export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** A real SMTP server on loopback that keeps what it receives; AUTH is checked. */
export async function startSmtpServer(credentials = { user: "mailer", pass: "s3cret-smtp" }) {
  const received: ReceivedMail[] = [];
  /** Every AUTH this server was sent, right or wrong: what a rogue server would learn. */
  const authAttempts: Array<{ username: string; password: string }> = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust in tests.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      authAttempts.push({ username: auth.username ?? "", password: auth.password ?? "" });
      if (auth.username === credentials.user && auth.password === credentials.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c: Uint8Array) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: new TextDecoder().decode(
            chunks.reduce((all, c) => {
              const out = new Uint8Array(all.length + c.length);
              out.set(all);
              out.set(c, all.length);
              return out;
            }, new Uint8Array()),
          ),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    received,
    authAttempts,
    credentials,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening on it (a mail server that is down). */
export function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * The settings body that points the app at a loopback test server: the one
 * place tests tick "local relay without TLS", since the test server speaks
 * plain SMTP (the app requires TLS otherwise). `port` may name another server,
 * e.g. deadPort().
 */
export function mailSettingsFor(
  server: { port: number; credentials: { user: string; pass: string } },
  init: { port?: number; fromEmail?: string; fromName?: string } = {},
) {
  return {
    smtpHost: "127.0.0.1",
    smtpPort: init.port ?? server.port,
    smtpUser: server.credentials.user,
    smtpPassEnc: server.credentials.pass,
    smtpFromEmail: init.fromEmail ?? "quotes@store.test",
    ...(init.fromName ? { smtpFromName: init.fromName } : {}),
    smtpAllowInsecure: true,
  };
}
