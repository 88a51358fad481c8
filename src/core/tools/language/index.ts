export { definitionTool } from './definition';
export { diagnosticsTool } from './diagnostics';
export { referencesTool } from './references';
export { symbolsTool } from './symbols';
export { withEditDiagnostics } from './afterEdit';
