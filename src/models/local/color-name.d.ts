/** The CSS colour names (the color-name package ships no types): each name's red, green and blue. */
declare module 'color-name' {
  const colors: Readonly<Record<string, readonly [number, number, number]>>;
  export default colors;
}
