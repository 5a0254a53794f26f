// The password rule is read by configuration too (ADMIN_PASSWORD), so it lives in services.
export * from "~/services/password-rule.server";
