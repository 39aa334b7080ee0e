/** The addresses of the links the team e-mails and prints, on PUBLIC_BASE_URL. */
export const INVITATION_PATH = "/invitations/accept";
export const RESET_PATH = "/password/reset";

export function invitationUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${INVITATION_PATH}?token=${token}`;
}

export function resetUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${RESET_PATH}?token=${token}`;
}
