import { describe, it } from "node:test";
import { expect } from "expect";
import { currentToast, dismissToast, toast } from "./toast.tsx";

describe("toast queue", () => {
  it("shows one toast at a time: a new one replaces the current", () => {
    toast({ title: "First" });
    toast({ title: "Second", description: "replaces", variant: "success" });
    expect(currentToast()).toMatchObject({ title: "Second", variant: "success" });
    const id = currentToast()!.id;
    dismissToast(id - 1); // a stale id does not dismiss the newer toast
    expect(currentToast()?.title).toBe("Second");
    dismissToast(id);
    expect(currentToast()).toBeNull();
  });
});
