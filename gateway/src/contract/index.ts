// The contract (DESIGN.md §1) as the gateway and the e2e harness use it.
export {
  allOperations,
  apiPath,
  contractDocument,
  matchOperation,
  operationById,
  type ContractOperation,
  type OperationMatch,
  type SwaggerDocument,
} from './document.js';
export { bodyOrZero, operationHasBody, validateDefinition, validateRequestBody, validateResponse, type ResponseCheckOptions } from './validator.js';
export { implementedDocument, swaggerUiRouter } from './swagger.js';
export { CODE_STATUSES, codeStatus, documentedStatusOf } from './code-statuses.js';
