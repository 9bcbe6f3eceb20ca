/** What a client-held screen says while its submit waits on the device for the connection. */
export const SAVED_ON_DEVICE = "Saved on this tablet — it will be sent when the connection is back";
