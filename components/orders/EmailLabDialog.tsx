// "E-mail to Lab": which jobs go to the lab. Every job the lab must make is
// offered (a cancelled or picked-up one never is); the jobs not sent to the
// lab yet are ticked, so a job already at the lab, or ready, is sent again
// only when staff tick it.
import { Checkbox } from "../Checkbox.tsx";
import { type FormEvent, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";
import { AWAITING_LAB, isForLab, JOB_STATUS_LABELS } from "../../src/orders/rules.ts";
import type { JobView } from "../../src/orders/views.ts";

export function EmailLabDialog(
  { open, jobs, busy, onClose, onSubmit }: {
    open: boolean;
    jobs: JobView[];
    busy: boolean;
    onClose: () => void;
    onSubmit: (jobIds: string[]) => void;
  },
) {
  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={onClose}
      title="E-mail Work Order to Lab"
      description="The lab receives one work order sheet per job ticked."
    >
      {open && <JobsForm jobs={jobs} busy={busy} onCancel={onClose} onSubmit={onSubmit} />}
    </Dialog>
  );
}

function JobsForm(
  { jobs, busy, onCancel, onSubmit }: {
    jobs: JobView[];
    busy: boolean;
    onCancel: () => void;
    onSubmit: (jobIds: string[]) => void;
  },
) {
  const id = useId();
  const offered = jobs.filter((j) => isForLab(j.status));
  const [ticked, setTicked] = useState(
    () => new Set(offered.filter((j) => AWAITING_LAB.includes(j.status)).map((j) => j.id)),
  );
  const chosen = offered.filter((j) => ticked.has(j.id)).map((j) => j.id);
  function toggle(jobId: string, on: boolean) {
    setTicked((now) => {
      const next = new Set(now);
      if (on) next.add(jobId);
      else next.delete(jobId);
      return next;
    });
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy && chosen.length > 0) onSubmit(chosen);
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      {offered.length === 0
        ? <p className="empty-inline">Every job of this order is cancelled or picked up.</p>
        : (
          <fieldset className="email-lab-jobs" aria-describedby={`${id}-hint`}>
            <legend>Jobs to send</legend>
            {offered.map((job) => (
              <Checkbox
                key={job.id}
                className="email-lab-job"
                checked={ticked.has(job.id)}
                disabled={busy}
                onChange={(e) => toggle(job.id, e.target.checked)}
                label={
                  <>
                    <span className="job-number">{job.jobNumber}</span> {job.optionLabel}{" "}
                    <span className="muted">
                      · {JOB_STATUS_LABELS[job.status]} · {job.lab.name}
                    </span>
                  </>
                }
              />
            ))}
            <p id={`${id}-hint`} className="hint">
              Jobs not sent to the lab yet are ticked. A job already at the lab is sent again only
              if you tick it.
            </p>
          </fieldset>
        )}
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || chosen.length === 0}>
          {busy ? "Sending..." : chosen.length === 1 ? "Send 1 Job" : `Send ${chosen.length} Jobs`}
        </button>
      </div>
    </form>
  );
}
