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
