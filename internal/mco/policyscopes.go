package mco

// PolicyScope is one scope as a signature policy writes it.
type PolicyScope struct {
	Scope string
	// Namespace is the ImagePolicy's namespace; "" for a
	// ClusterImagePolicy scope.
	Namespace string
	// At is the scope, spec.scopes[Index] of its object; At.Index is -1
	// for the default ClusterImagePolicy, which is not in the tree.
	At    Subject
	Index int
}

// PolicyScopes lists every scope of the signature policies the cluster
// has, in the order MCO reads them (getValidScopePolicies): the
// ClusterImagePolicy scopes by object name, the default policy's among
// them, then the ImagePolicy scopes by namespace and name. A repeated
// scope is listed each time it is written, and so is an ImagePolicy scope
// MCO drops for lying inside a cluster scope: the rules say what the
// repetition and the overlap do. Before 4.18 MCO reads no policies and
// the list is empty.
func (p *Plan) PolicyScopes() []PolicyScope {
	if !p.v.AtLeast(18) {
		return nil
	}
	var out []PolicyScope
	for _, c := range clusterPolicyOrder(p.in) {
		for j, s := range c.obj.Spec.Scopes {
			out = append(out, PolicyScope{Scope: string(s), At: scopeAt{KindClusterImagePolicy, c.index, j}.subject(), Index: j})
		}
	}
	for _, i := range imagePolicyOrder(p.in) {
		ip := p.in.ImagePolicies[i]
		for j, s := range ip.Spec.Scopes {
			out = append(out, PolicyScope{Scope: string(s), Namespace: ip.Namespace, At: scopeAt{KindImagePolicy, i, j}.subject(), Index: j})
		}
	}
	return out
}
