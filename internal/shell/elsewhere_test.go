package shell

import "testing"

// Commands run elsewhere or later are read as commands of their own.
func TestElsewhere(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`ssh -p 22 -i k host 'rm -rf ~'`, "ssh | -p | 22 | -i | k | host | rm -rf ~\n>[ssh host] rm | -rf | ~\n"},
		{`ssh host ls /tmp`, "ssh | host | ls | /tmp\n>[ssh host] ls | /tmp\n"},
		{`docker exec -it -u root web sh -c 'rm -rf /'`, "docker | exec | -it | -u | root | web | sh | -c | rm -rf /\n>[docker exec web] sh | -c | rm -rf /\n>>[sh -c] rm | -rf | /\n"},
		{`docker run --rm -v /:/host alpine rm -rf /host/etc`, "docker | run | --rm | -v | /:/host | alpine | rm | -rf | /host/etc\n>[docker run alpine] rm | -rf | /etc\n"},
		{`podman run --mount type=bind,source=/,target=/h img sh -c 'rm -rf /h/usr'`, "podman | run | --mount | type=bind,source=/,target=/h | img | sh | -c | rm -rf /h/usr\n>[podman run img] sh | -c | rm -rf /usr\n>>[sh -c] rm | -rf | /usr\n"},
		{`docker run -v $PWD:/src img ls /src`, "docker | run | -v | $PWD:/src | img | ls | /src\n>[docker run img] ls | /src\n"},
		{`docker compose exec db psql`, "docker | compose | exec | db | psql\n>[docker exec db] psql\n"},
		{`docker ps`, "docker | ps\n"},
		{`kubectl -n x exec -it pod -- rm -rf /`, "kubectl | -n | x | exec | -it | pod | -- | rm | -rf | /\n>[kubectl exec] rm | -rf | /\n"},
		{`kubectl get pods -- x`, "kubectl | get | pods | -- | x\n"},
		{`parallel rm -rf {} ::: a b`, "parallel | rm | -rf | {} | ::: | a | b\n>[parallel] rm | -rf | a\n>[parallel] rm | -rf | b\n"},
		{`parallel ::: 'rm -rf ~'`, "parallel | ::: | rm -rf ~\n>[parallel] rm | -rf | ~\n"},
		{`unshare -r rm -rf ~`, "rm | -rf | ~\n"},
		{`fakeroot -- rm -rf /`, "rm | -rf | /\n"},
		{`screen -dmS x rm -rf ~`, "screen | -dmS | x | rm | -rf | ~\n>[screen] rm | -rf | ~\n"},
		{`screen -S x -X stuff 'rm -rf ~\n'`, "screen | -S | x | -X | stuff | rm -rf ~\\n\n>[screen stuff] rm | -rf | ~\n"},
		{`tmux new-session -d -s w 'rm -rf ~'`, "tmux | new-session | -d | -s | w | rm -rf ~\n>[tmux new-session] rm | -rf | ~\n"},
		{`tmux send-keys -t 0 'git push -f' Enter`, "tmux | send-keys | -t | 0 | git push -f | Enter\n>[tmux send-keys] git | push | -f\n"},
		{`tmux new -s dev`, "tmux | new | -s | dev\n"},
		{`at now <<< 'rm -rf ~'`, "at | now <<rm -rf ~\n>[stdin of at] rm | -rf | ~\n"},
		{`echo 'rm -rf ~' | batch`, "echo | rm -rf ~\nbatch\n>[pipe to batch] rm | -rf | ~\n"},
		{`trap 'rm -rf ~' EXIT`, "trap | rm -rf ~ | EXIT\n>[trap] rm | -rf | ~\n"},
		{`trap - EXIT`, "trap | - | EXIT\n"},
		{`entr -s 'rm -rf /'`, "entr | -s | rm -rf /\n>[entr -s] rm | -rf | /\n"},
		{`entr -r go test`, "go | test\n"},
	} {
		cmds, err := Parse(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
		}
		if got := render(cmds); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
