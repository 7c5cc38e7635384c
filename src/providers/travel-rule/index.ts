// Travel Rule protocol adapters: OpenVASP TRP v3 (messages, receiver, client) and TRISA secure envelopes.
export {
  TRP_API_VERSION,
  TRP_HEADERS,
  TRP_CONTENT_TYPE,
  newRequestIdentifier,
  trpHeaders,
  buildInquiryRequest,
  serializeInquiry,
  serializeResolution,
  serializeConfirmation,
  parseInquiry,
  parseResolution,
  parseConfirmation,
  numberToDecimal,
  rejectionComment,
  readRejectionComment,
  type TrpAsset,
  type TrpInquiry,
  type TrpResolution,
  type TrpConfirmation,
  type TrpError,
  type TrpRequest,
  type Parsed,
} from './trp.js';
export { handleTrpRequest, classifyTrpPath, actionForTrpMessage, type TrpInbound, type TrpInboundKind, type TrpHandled } from './trp-handler.js';
export { createTrpClient, classifyStatus, TrpClientError, type TrpClient, type TrpClientOptions, type TrpPeerIdentity, type TrpPeerExtensions } from './trp-client.js';
export {
  openEnvelope,
  sealEnvelope,
  publicKeySignature,
  TrisaEnvelopeError,
  type TrisaEnvelopeJson,
  type OpenedEnvelope,
} from './trisa-envelope.js';
