/** "62" → "62 mm"; "0" is the default for a value never measured. */
export const pdText = (value: string) => (Number(value) > 0 ? `${value} mm` : "Not measured");
