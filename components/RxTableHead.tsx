/** The column heads of a prescription table: on screen, on the internal copy, on the lab's order. */
export function RxTableHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Eye</th>
        <th scope="col">Sphere</th>
        <th scope="col">Cylinder</th>
        <th scope="col">Axis</th>
        <th scope="col">Add</th>
        <th scope="col">Prism</th>
      </tr>
    </thead>
  );
}

/** One eye's row as the printed copies show it, every value already written. */
export interface PrintedEye {
  eye: string;
  sphere: string;
  cylinder: string;
  axis: string;
  add: string;
  prism: string;
}

/** The prescription table of the printed copies: the internal copy and the lab's work order. */
export function PrintedRxTable({ eyes }: { eyes: PrintedEye[] }) {
  return (
    <table className="print-rx-table">
      <RxTableHead />
      <tbody>
        {eyes.map((e) => (
          <tr key={e.eye}>
            <th scope="row">{e.eye}</th>
            <td>{e.sphere}</td>
            <td>{e.cylinder}</td>
            <td>{e.axis}</td>
            <td>{e.add}</td>
            <td>{e.prism}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
