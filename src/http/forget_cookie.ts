/**
 * The cookie a sign-out or the end of a kiosk session sets so that the next
 * page clears the device (src/http/device_forget.ts sets it,
 * islands/_forget.ts deletes it). A module of its own, with nothing else in
 * it: the browser's script imports it too.
 */
export const FORGET_COOKIE = "lensdesk_forget";
