// The head row of every data table, one way: a column is its label, or its
// label with a class (`num` right-aligns money; an actions column has its own).

export type Column = string | { label: string; className: string };

export function ColumnHeads({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === "string"
            ? <th key={column} scope="col">{column}</th>
            : <th key={column.label} scope="col" className={column.className}>{column.label}</th>
        )}
      </tr>
    </thead>
  );
}
