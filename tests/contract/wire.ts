/**
 * One contract, checked both ways: the client's wire types (src/**\/*.adapter.ts) against the types
 * openapi-typescript generates from the server's own document (openapi.d.ts, written by
 * scripts/openapi.ts from GET /api/v1/openapi.json). For every operation the adapter calls, its request
 * body and its success answer must be assignable each way; `tsc` fails on the first disagreement and
 * names the operation and the type that does not fit. Nothing here runs.
 */
import type * as Auth from '../../src/auth/auth.adapter';
import type * as Chat from '../../src/chat/chat.adapter';
import type * as Goals from '../../src/goals/goals.adapter';
import type * as Settings from '../../src/settings/settings.adapter';
import type * as Teacher from '../../src/teacher/teacher.adapter';
import type * as Wallet from '../../src/wallet/wallet.adapter';
import type { MessageResponse, Paged } from '../../src/wire';
import type { operations } from './openapi';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
/** The JSON request body of an operation. */
type RequestOf<Op extends keyof operations> = Json<NonNullable<operations[Op]['requestBody']>>;
/** The JSON answer of an operation's success (200, else 201). */
type AnswerOf<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: infer Ok }
    ? Json<Ok>
    : R extends { 201: infer Created }
      ? Json<Created>
      : never
  : never;

/**
 * Top-level presence is not compared: an optional or nullable field on one side and a required one on
 * the other agree (the client may treat as optional what API.md does not promise, e.g. `expires_in`;
 * the server may accept `null` for a field the client omits). Every field's value type, every nested
 * object and the set of field names must agree both ways.
 */
type Presence<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]-?: Exclude<T[K], undefined | null> }
    : T;

/** `'agree'`, or what keeps the client's and the server's type from meeting. */
type Agree<Client, Server> = [Presence<Client>] extends [Presence<Server>]
  ? [Presence<Server>] extends [Presence<Client>]
    ? 'agree'
    : { server_type_is_not_the_client_type: Server; client: Client }
  : { client_type_is_not_the_server_type: Client; server: Server };

/** `'agree'` when an operation's request body and answer agree both ways; else what does not. */
type Check<Op extends keyof operations, Request, Answer> = [
  RequestAgrees<Op, Request>,
  Agree<Answer, AnswerOf<Op>>,
] extends ['agree', 'agree']
  ? 'agree'
  : { operation: Op; request: RequestAgrees<Op, Request>; answer: Agree<Answer, AnswerOf<Op>> };
/** A client that sends no body needs a server that requires none. */
type RequestAgrees<Op extends keyof operations, Request> = [Request] extends [never]
  ? undefined extends operations[Op]['requestBody']
    ? 'agree'
    : { server_requires_a_body: RequestOf<Op> }
  : [Request] extends [Multipart]
    ? NonNullable<operations[Op]['requestBody']> extends {
        content: { 'multipart/form-data': unknown };
      }
      ? 'agree'
      : { server_takes_no_multipart_body: operations[Op]['requestBody'] }
    : Agree<Request, RequestOf<Op>>;
/** The client sends a multipart form (a file upload). */
type Multipart = { 'multipart/form-data': true };
/** The client sends no JSON body. */
type NoBody = never;

/** Every operation the client calls, with the wire types it sends and expects. */
export type Contract = [
  // auth
  Check<'postAuthRegister', Auth.RegisterRequest, Auth.RegisterResponse>,
  Check<'postAuthLogin', Auth.LoginRequest, Auth.AuthResponse>,
  Check<'getAuthMe', NoBody, Auth.UserResponse>,
  Check<'postAuthVerifyEmail', Auth.VerifyEmailRequest, Auth.AuthResponse>,
  Check<'postAuthResendVerification', Auth.EmailRequest, Auth.ResendResponse>,
  Check<'getAuthProviders', NoBody, Auth.AuthProviders>,
  Check<'getLegalByName', NoBody, Auth.LegalPage>,
  Check<'getAuthExport', NoBody, Settings.AccountExport>,
  Check<'deleteAuthAccount', Settings.DeleteAccountRequest, MessageResponse>,
  Check<'postAuthPasswordReset', Auth.EmailRequest, MessageResponse>,
  Check<'postAuthPasswordResetConfirm', Auth.ConfirmPasswordResetRequest, MessageResponse>,
  Check<'postAuthOnboardingComplete', NoBody, Auth.UserResponse>,
  Check<'postAuthRefresh', Auth.RefreshRequest, Auth.TokenResponse>,
  Check<'postAuthLogout', Partial<Auth.RefreshRequest>, MessageResponse>,
  Check<'postAuthWeb3Nonce', Auth.Web3NonceRequest, Auth.Web3NonceResponse>,
  Check<'postAuthWeb3Authenticate', Auth.Web3AuthenticateRequest, Auth.AuthResponse>,
  Check<'postAuthTokenExchange', Auth.TokenExchangeRequest, Auth.AuthResponse>,
  // settings
  Check<'putAuthProfile', Settings.UpdateProfileRequest, Auth.UserResponse>,
  Check<'postAuthChangePassword', Settings.ChangePasswordRequest, MessageResponse>,
  Check<'postAuthProfileUploadAvatar', Multipart, Auth.UserResponse>,
  // chat
  Check<'postChatSend', Chat.ChatSendRequest, Chat.ChatSendResponse>,
  Check<'getChatSessions', NoBody, Chat.ChatSessionPage>,
  Check<'getChatSessionsById', NoBody, Chat.ChatSessionDetail>,
  Check<'patchChatSessionsByIdTitle', Chat.RenameSessionRequest, Chat.ChatSession>,
  Check<'deleteChatSessionsById', NoBody, MessageResponse>,
  Check<'getChatSearch', NoBody, Chat.ChatSearchPage>,
  Check<'getChatArchives', NoBody, Chat.ChatSessionPage>,
  Check<'patchChatArchives', NoBody, MessageResponse>,
  Check<'deleteChatAll', NoBody, MessageResponse>,
  Check<'patchChatSessionsByIdArchive', NoBody, Chat.ChatSession>,
  Check<'patchChatSessionsByIdUnarchive', NoBody, Chat.ChatSession>,
  Check<'deleteChatSessionsByIdArchive', NoBody, MessageResponse>,
  // goals
  Check<'postGoal', Goals.CreateGoalRequest, Goals.GoalResponse>,
  Check<'getGoal', NoBody, Goals.GoalListResponse>,
  Check<'getGoalAll', NoBody, Goals.GoalListResponse>,
  Check<'putGoalById', Goals.UpdateGoalRequest, Goals.GoalResponse>,
  Check<'deleteGoalById', NoBody, MessageResponse>,
  Check<'postGoalByIdProgress', Goals.LogProgressRequest, Goals.GoalResponse>,
  Check<'getGoalByIdProgress', NoBody, Paged<'data', Goals.GoalProgressEntry>>,
  Check<'getGoalActivities', NoBody, Paged<'data', Goals.GoalActivity>>,
  Check<'getGoalCompletedInWeek', NoBody, { count: number }>,
  Check<'getGoalStreak', NoBody, { streak: number }>,
  Check<'getGoalCelebrations', NoBody, Goals.Celebration[]>,
  // wallet
  Check<'getWeb3TokensConversionInfo', NoBody, Wallet.ConversionInfo>,
  Check<'getWeb3TokensFinuBalance', NoBody, Wallet.Balance>,
  Check<'postWeb3TokensConvertPointsToFinu', Wallet.ConvertRequest, Wallet.TransactionResponse>,
  Check<'getWeb3TokensTransactionById', NoBody, Wallet.TransactionResponse>,
  Check<'getWeb3TokensActivity', NoBody, Paged<'data', Wallet.WalletActivity>>,
  Check<'getWeb3TokensDistributionBalances', NoBody, Wallet.DistributionBalances>,
  Check<'getClasses', NoBody, Teacher.ClassList>,
  Check<'getClassesByClassIdStudents', NoBody, Teacher.ClassDashboardData>,
  Check<'getAlerts', NoBody, Teacher.AlertList>,
  Check<'getAlertsUnread', NoBody, { unread: number }>,
  Check<'getAlertsByAlertId', NoBody, Teacher.AlertDetail>,
  Check<'postAlertsByAlertIdAcknowledge', NoBody, Teacher.AlertDetail>,
  Check<'postAlertsByAlertIdResolve', { note: string }, Teacher.AlertDetail>,
  Check<'postAlertsByAlertIdFalsePositive', { note?: string }, Teacher.AlertDetail>,
];

/** Fails the type check, naming the operation, wherever a check above is not `['agree', 'agree']`. */
export type Disagreements = Exclude<Contract[number], 'agree'>;
export const contractHolds: [Disagreements] extends [never] ? true : Disagreements = true;
