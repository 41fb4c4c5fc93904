//! The merged catalogue: built-ins, overridden or extended by the user's profiles.

use super::builtin::builtin_profiles;
use super::user_file::{UserProfiles, read_user_profiles};
use idea_domain::ports::{ProfileCatalog, ProfileProblem};
use idea_domain::profile::AgentProfile;
use std::path::{Path, PathBuf};

/// The user profiles file inside the user state folder `user_dir` (`~/.ideai`, or
/// `$IDEA_USER_DIR`): `<user_dir>/profiles.json`.
pub fn user_profiles_path(user_dir: &Path) -> PathBuf {
    user_dir.join("profiles.json")
}

/// Merges `user` over `builtins`: a user profile with a built-in's id replaces it in place,
/// the others are appended in their order.
pub fn merge(builtins: Vec<AgentProfile>, user: Vec<AgentProfile>) -> Vec<AgentProfile> {
    let mut merged = builtins;
    for profile in user {
        match merged.iter_mut().find(|p| p.id == profile.id) {
            Some(slot) => *slot = profile,
            None => merged.push(profile),
        }
    }
    merged
}

/// The profile catalogue read once from the built-ins and the user's `profiles.json`.
#[derive(Debug, Clone)]
pub struct FsProfileCatalog {
    profiles: Vec<AgentProfile>,
    problems: Vec<ProfileProblem>,
}

impl FsProfileCatalog {
    /// The built-ins merged with the profiles of `user_file` (see [`user_profiles_path`]). An
    /// absent file adds nothing; a bad entry, or an unreadable or corrupt file, becomes a
    /// problem while everything else still loads. The file is never written.
    pub fn load(user_file: Option<&Path>) -> Self {
        let user = user_file.map(read_user_profiles).unwrap_or_default();
        Self::from_user(user)
    }

    /// The catalogue for already-read user profiles.
    pub fn from_user(user: UserProfiles) -> Self {
        Self {
            profiles: merge(builtin_profiles(), user.profiles),
            problems: user.problems,
        }
    }
}

impl ProfileCatalog for FsProfileCatalog {
    fn profiles(&self) -> Vec<AgentProfile> {
        self.profiles.clone()
    }

    fn problems(&self) -> Vec<ProfileProblem> {
        self.problems.clone()
    }

    fn is_installed(&self, profile: &AgentProfile) -> bool {
        if profile.command == "{loginShell}" || profile.via_shell {
            return true;
        }
        // The agent's PATH: the profile's own, else the one it inherits from IdeA.
        let path = profile
            .env
            .get("PATH")
            .map(std::ffi::OsString::from)
            .or_else(|| std::env::var_os("PATH"));
        crate::probe::find_on_path(&profile.command, path.as_deref()).is_some()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use idea_domain::profile::ProfileId;
    use std::fs;

    fn ids(profiles: &[AgentProfile]) -> Vec<&str> {
        profiles.iter().map(|p| p.id.as_str()).collect()
    }

    fn builtin_ids() -> Vec<String> {
        builtin_profiles().into_iter().map(|p| p.id.0).collect()
    }

    fn write(dir: &tempfile::TempDir, text: &str) -> PathBuf {
        let path = user_profiles_path(dir.path());
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn path_is_profiles_json_in_the_user_dir() {
        assert_eq!(
            user_profiles_path(Path::new("/home/u/.ideai")),
            Path::new("/home/u/.ideai/profiles.json")
        );
    }

    #[test]
    fn no_file_means_the_builtins_and_no_problem() {
        let dir = tempfile::tempdir().unwrap();
        for catalog in [
            FsProfileCatalog::load(None),
            FsProfileCatalog::load(Some(&user_profiles_path(dir.path()))),
        ] {
            assert_eq!(ids(&catalog.profiles()), builtin_ids());
            assert_eq!(catalog.problems(), []);
        }
    }

    #[test]
    fn user_profiles_replace_in_place_and_append() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            &dir,
            r#"{"version":1,"profiles":[
                {"id":"extra","name":"Extra","command":"extra","contextInjection":{"kind":"stdin"}},
                {"id":"codex","name":"My Codex","command":"/opt/codex","contextInjection":{"kind":"conventionFile","target":"AGENTS.md"}}
            ]}"#,
        );
        let catalog = FsProfileCatalog::load(Some(&path));
        assert_eq!(catalog.problems(), []);
        let profiles = catalog.profiles();
        let mut expected = builtin_ids();
        expected.push("extra".to_owned());
        assert_eq!(ids(&profiles), expected);
        let codex = catalog.get(&ProfileId::new("codex")).unwrap();
        assert_eq!(codex.name, "My Codex");
        assert_eq!(codex.command, "/opt/codex");
        assert!(
            codex.session.is_none(),
            "a replacement is taken whole, not merged field by field"
        );
        assert_eq!(
            catalog.get(&ProfileId::new("extra")).unwrap().command,
            "extra"
        );
    }

    #[test]
    fn merge_keeps_builtin_order() {
        let mut shell = builtin_profiles().pop().unwrap();
        shell.name = "zsh".to_owned();
        let mut claude = builtin_profiles().remove(0);
        claude.command = "/usr/local/bin/claude".to_owned();
        let merged = merge(builtin_profiles(), vec![shell, claude]);
        assert_eq!(ids(&merged), builtin_ids());
        assert_eq!(merged[0].command, "/usr/local/bin/claude");
        assert_eq!(merged[5].name, "zsh");
    }

    #[test]
    fn a_good_and_a_bad_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            &dir,
            r#"[
                {"id":"good","name":"Good","command":"good","contextInjection":{"kind":"none"}},
                {"id":"bad","name":"Bad","command":"bad","contextInjection":{"kind":"conventionFile"}}
            ]"#,
        );
        let catalog = FsProfileCatalog::load(Some(&path));
        assert!(catalog.get(&ProfileId::new("good")).is_some());
        assert!(catalog.get(&ProfileId::new("bad")).is_none());
        assert_eq!(catalog.profiles().len(), builtin_ids().len() + 1);
        let problems = catalog.problems();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].source, path);
        assert!(
            problems[0].message.contains(r#"[1] (id "bad")"#),
            "{}",
            problems[0].message
        );
        assert!(
            problems[0].message.contains("target"),
            "{}",
            problems[0].message
        );
    }

    #[test]
    fn a_corrupt_file_is_one_problem_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let text = r#"{"version":1,"profiles":[{"id":"half"#;
        let path = write(&dir, text);
        let catalog = FsProfileCatalog::load(Some(&path));
        assert_eq!(ids(&catalog.profiles()), builtin_ids());
        let problems = catalog.problems();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].source, path);
        assert!(
            problems[0].message.contains("not valid JSON"),
            "{}",
            problems[0].message
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn an_unreadable_file_is_one_problem() {
        let dir = tempfile::tempdir().unwrap();
        let path = user_profiles_path(dir.path());
        fs::create_dir(&path).unwrap();
        let catalog = FsProfileCatalog::load(Some(&path));
        assert_eq!(ids(&catalog.profiles()), builtin_ids());
        let problems = catalog.problems();
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].message.starts_with("cannot read the file"),
            "{}",
            problems[0].message
        );
    }
}
