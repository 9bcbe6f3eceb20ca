/** One choice of a filter: the value sent in the query string and what the list shows. */
export interface FilterChoice {
  value: string;
  label: string;
}

/**
 * A labelled <select> of a list page's filter bar (a GET form): its first
 * choice, the empty value, means no filter. `value` is what the query string
 * holds now.
 */
export function FilterSelect(
  { id, label, name, value, anyLabel, choices }: {
    id: string;
    label: string;
    name: string;
    value: string | undefined;
    anyLabel: string;
    choices: readonly FilterChoice[];
  },
) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ""}>
        <option value="">{anyLabel}</option>
        {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    </div>
  );
}
