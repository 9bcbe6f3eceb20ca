import { type ChangeEvent, useId, useRef, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import {
  acceptList,
  IMAGE_RULES,
  IMAGE_TYPES,
  imageProblem,
  SNIFF_BYTES,
} from "../../src/uploads/image_rules.ts";

type Which = "logo" | "favicon";

const LABELS: Record<Which, { title: string; noun: string; field: "logoUrl" | "faviconUrl" }> = {
  logo: { title: "Logo", noun: "logo", field: "logoUrl" },
  favicon: { title: "Favicon", noun: "favicon", field: "faviconUrl" },
};

/**
 * Sends the file to the upload URL with a raw PUT, reporting progress (fetch
 * cannot report upload progress; XMLHttpRequest can).
 */
function putWithProgress(url: string, file: File, onProgress: (percent: number) => void) {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("accept", "application/json");
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = xhr.statusText || "Upload failed";
      try {
        message = JSON.parse(xhr.responseText).message || message;
      } catch {
        // not JSON
      }
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new Error("Network error while uploading"));
    xhr.send(file);
  });
}

/** A data: URL for the preview: the page's CSP allows data: images, not blob: ones. */
function readAsDataUrl(file: File) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The new image shows on this page at once, not only after the next load. */
function showOnPage(which: Which, url: string) {
  if (which === "logo") {
    for (const img of document.querySelectorAll<HTMLImageElement>("img.brand-logo")) img.src = url;
  } else {
    document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.setAttribute("href", url);
  }
}

/**
 * The spec's upload widget for the logo or the favicon: one file, checked
 * here by the same rules as on the server (type by its bytes, size), a
 * preview, then the upload with its progress.
 */
export function ImageUpload(
  { which, currentUrl, previewSize, saveTo, onSaved }: {
    which: Which;
    currentUrl: string;
    previewSize: number;
    /**
     * Where the upload is saved: a store's own logo (/api/admin/stores/{id}/logo),
     * which this page need not wear; else the chain's, which it shows at once.
     */
    saveTo?: string;
    onSaved?: (url: string) => void;
  },
) {
  const id = useId();
  const label = LABELS[which];
  const rule = IMAGE_RULES[which];
  const input = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState(currentUrl);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [progress, setProgress] = useState(0);

  function clear() {
    setFile(null);
    setPreview(null);
    setProgress(0);
    if (input.current) input.current.value = "";
  }

  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      setProgress(0);
      const { uploadURL } = await apiRequest<{ uploadURL: string }>(
        "POST",
        "/api/objects/upload",
        { purpose: which },
      );
      await putWithProgress(uploadURL, chosen, setProgress);
      return await apiRequest<Record<string, string>>("PUT", saveTo ?? `/api/admin/${which}`, {
        [label.field]: uploadURL,
      });
    },
    onSuccess: (saved) => {
      const url = saved[label.field];
      setCurrent(url);
      if (saveTo) onSaved?.(url);
      else showOnPage(which, url);
      clear();
      toast({ title: `${label.title} Updated`, variant: "success" });
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({
        title: "Upload Failed",
        description: `Failed to update ${label.noun}. Please try again.`,
        variant: "destructive",
      });
    },
  });

  async function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    clear();
    setProblem(undefined);
    if (!chosen) return;
    const head = new Uint8Array(await chosen.slice(0, SNIFF_BYTES).arrayBuffer());
    const why = imageProblem(which, head, chosen.size);
    if (why) {
      setProblem(why);
      if (input.current) input.current.value = "";
      return;
    }
    setFile(chosen);
    setPreview(await readAsDataUrl(chosen));
  }

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const types = rule.kinds.map((k) => IMAGE_TYPES[k].label).join(", ");
  return (
    <div className="image-upload">
      <figure className="settings-image">
        <img
          src={preview ?? current}
          alt={preview ? `New ${label.noun}, not uploaded yet` : `Current ${label.noun}`}
          width={previewSize}
          height={previewSize}
        />
        <figcaption>{preview ? `New ${label.noun}` : label.title}</figcaption>
      </figure>
      <div className="image-upload-controls">
        <label htmlFor={`${id}-file`}>{`Choose ${label.noun} file`}</label>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept={acceptList(which)}
          onChange={onChoose}
          disabled={upload.isPending}
          aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          aria-invalid={problem ? true : undefined}
        />
        <p id={hintId} className="hint">
          {types}, up to {rule.maxLabel}
          {which === "favicon" ? " (32×32 recommended)" : ""}.
        </p>
        {problem && <p id={errorId} className="field-error" role="alert">{problem}</p>}
        {file && (
          <div className="image-upload-actions">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={upload.isPending}
              onClick={() => upload.mutate(file)}
            >
              {upload.isPending ? "Uploading..." : `Upload ${label.title}`}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={upload.isPending}
              onClick={clear}
            >
              Cancel
            </button>
          </div>
        )}
        {upload.isPending && (
          <div className="image-upload-progress">
            <progress max={100} value={progress} aria-label={`Uploading ${label.noun}`} />
            <span aria-hidden="true">{progress}%</span>
          </div>
        )}
      </div>
    </div>
  );
}
