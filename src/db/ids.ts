// Row ids are UUIDs. They live below every domain so that any of them can
// check an id without importing another domain's module.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs: anything that is not a UUID is simply not found. */
export const isUuid = (id: string) => UUID.test(id);
