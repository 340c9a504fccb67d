-- Every change to a user or a sign-in session is announced on the channel `ayah_auth_changes`, so
-- each server's session cache (server/auth/session-cache.ts) forgets what it held: `u:<user id>` for
-- a user updated or deleted, `s:<session id>` for a session updated (revoked, say) or deleted, `*`
-- when either table is truncated. Triggers, not the services, so no write path can forget to say it.
-- A NOTIFY is sent at commit, never for a rolled-back change, and once per payload a transaction.
CREATE FUNCTION "ayah_announce_auth_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('ayah_auth_changes', '*');
	ELSIF TG_TABLE_NAME = 'users' THEN
		PERFORM pg_notify('ayah_auth_changes', 'u:' || OLD.id);
	ELSE
		PERFORM pg_notify('ayah_auth_changes', 's:' || OLD.id);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_announce_change" AFTER UPDATE OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "ayah_announce_auth_change"();
--> statement-breakpoint
CREATE TRIGGER "users_announce_truncate" AFTER TRUNCATE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION "ayah_announce_auth_change"();
--> statement-breakpoint
CREATE TRIGGER "auth_sessions_announce_change" AFTER UPDATE OR DELETE ON "auth_sessions"
	FOR EACH ROW EXECUTE FUNCTION "ayah_announce_auth_change"();
--> statement-breakpoint
CREATE TRIGGER "auth_sessions_announce_truncate" AFTER TRUNCATE ON "auth_sessions"
	FOR EACH STATEMENT EXECUTE FUNCTION "ayah_announce_auth_change"();
