// A test id for an MUI slot's input. JSX takes data-* attributes on any element, but an object
// literal of slot props is checked against the slot's props type, which lists none: spread this.
export const testId = (id: string): { 'data-testid': string } => ({ 'data-testid': id });
