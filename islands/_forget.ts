// The script of the first page after a sign-out (renderPage adds it while the
// sign-out's cookie is there, src/http/device_forget.ts): it clears what the
// app kept in this browser, but a queued write, then deletes the cookie so the
// next pages do not load it again.
import { FORGET_COOKIE, forgetDevice } from "../components/offline/forget_device.ts";

forgetDevice().then(() => {
  document.cookie = `${FORGET_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${
    location.protocol === "https:" ? "; Secure" : ""
  }`;
  // For the browser tests, as data-hydrated is.
  document.documentElement.dataset.deviceForgotten = "true";
});
