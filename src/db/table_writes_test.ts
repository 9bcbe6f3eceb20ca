import { describe, it } from "node:test";
import { expect } from "expect";
import { ConnectionWrites, TableWrites, writtenTables } from "./table_writes.ts";

describe("writtenTables", () => {
  it("reads write nothing", () => {
    for (
      const text of [
        'select "id" from "quotes" where "id" = $1',
        "  SELECT 1",
        "values (1)",
        "explain select 1",
        'with "x" as (select 1) select * from "x"',
        "begin",
        "commit",
        "rollback",
        "savepoint sp1",
        "set local timezone = 'UTC'",
        "lock table quotes in share mode",
      ]
    ) expect({ text, written: writtenTables(text) }).toEqual({ text, written: [] });
  });

  it("a plain insert, update or delete writes its target", () => {
    expect(writtenTables('insert into "quotes" ("id") values ($1)')).toEqual(["quotes"]);
    expect(writtenTables('update "client_measurements" set "pd_near" = $1')).toEqual([
      "client_measurements",
    ]);
    expect(writtenTables('delete from "sessions" where "id" = $1')).toEqual(["sessions"]);
    expect(writtenTables("DELETE FROM ONLY public.settings")).toEqual(["settings"]);
    expect(writtenTables('update "quotes" as "q" set "status" = $1')).toEqual(["quotes"]);
  });

  it("anything it cannot tell counts as a write to every table", () => {
    for (
      const text of [
        'with "n" as (insert into "quotes" default values returning id) select * from "n"',
        "truncate quotes, clients",
        "create table t (id int)",
        "copy clients from stdin",
        "do $$ begin perform 1; end $$",
        "call something()",
      ]
    ) expect({ text, written: writtenTables(text) }).toEqual({ text, written: "all" });
  });
});

describe("TableWrites", () => {
  it("a stamp moves with writes to its tables, or to any table, and not otherwise", () => {
    const writes = new TableWrites();
    const quotes = writes.stamp(["quotes", "clients"]);
    writes.record(["sessions"]);
    expect(writes.stamp(["quotes", "clients"])).toBe(quotes);
    writes.record(["clients"]);
    const afterClients = writes.stamp(["quotes", "clients"]);
    expect(afterClients).not.toBe(quotes);
    writes.record("all");
    expect(writes.stamp(["quotes", "clients"])).not.toBe(afterClients);
    expect(writes.stamp([])).toBe(1);
  });

  it("a connection's writes count once it is handed back, each table once", () => {
    const writes = new TableWrites();
    const connection = new ConnectionWrites();
    connection.note('insert into "quotes" ("id") values ($1)');
    connection.note('update "quotes" set "version" = 2');
    connection.note("select 1");
    expect(writes.stamp(["quotes"])).toBe(0);
    connection.flushTo(writes);
    expect(writes.stamp(["quotes"])).toBe(1);
    connection.flushTo(writes);
    expect(writes.stamp(["quotes"])).toBe(1);
  });
});

describe("TableWrites.pause and resume", () => {
  it("keeps nothing while paused, and every stamp moves at both", () => {
    const writes = new TableWrites();
    const before = writes.stamp(["settings"]);
    expect(writes.keeping).toBe(true);
    writes.pause();
    expect(writes.keeping).toBe(false);
    const paused = writes.stamp(["settings"]);
    expect(paused).not.toBe(before);
    writes.resume();
    expect(writes.keeping).toBe(true);
    expect(writes.stamp(["settings"])).not.toBe(paused);
  });
});
