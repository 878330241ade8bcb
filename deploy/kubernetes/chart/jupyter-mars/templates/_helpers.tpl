{{/* The cluster's name: the release's, short enough for the objects' names. */}}
{{- define "jupyter-mars.name" -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "jupyter-mars.secretName" -}}
{{- .Values.token.existingSecret | default (printf "%s-token" (include "jupyter-mars.name" .)) -}}
{{- end -}}

{{/* Labels selecting the cluster's objects, and one component's pods: (dict "root" . "component" "worker") */}}
{{- define "jupyter-mars.selector" -}}
app.kubernetes.io/name: jupyter-mars
app.kubernetes.io/instance: {{ include "jupyter-mars.name" .root }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- end -}}

{{/* The pods' labels: the selector's and the user's. */}}
{{- define "jupyter-mars.podLabels" -}}
{{ include "jupyter-mars.selector" . }}
{{- with .root.Values.extraLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The objects' labels: the pods', and Helm's. */}}
{{- define "jupyter-mars.labels" -}}
{{ include "jupyter-mars.podLabels" . }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{/* The pod environment every container gets: (dict "root" . "port" 7103 "extra" (dict ...)) */}}
{{- define "jupyter-mars.env" -}}
- name: MARS_CONTAINER_IP
  valueFrom:
    fieldRef:
      fieldPath: status.podIP
- name: MARS_K8S_POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: MARS_K8S_POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: MARS_CPU_TOTAL
  valueFrom:
    resourceFieldRef:
      resource: limits.cpu
      divisor: "1"
- name: MARS_MEMORY_TOTAL
  valueFrom:
    resourceFieldRef:
      resource: limits.memory
- name: MARS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "jupyter-mars.secretName" .root }}
      key: token
- name: MARS_BIND_PORT
  value: {{ .port | quote }}
- name: MARS_SUPERVISOR_ADDRESS
  value: {{ printf "%s-supervisor.%s.svc:7103" (include "jupyter-mars.name" .root) .root.Release.Namespace | quote }}
{{- range $name, $value := .extra }}
{{- /* a variable of extraEnv set here too (MARS_WEB_ALLOWED_HOSTS) adds its names */}}
{{- $given := index $.root.Values.extraEnv $name | default "" }}
- name: {{ $name }}
  value: {{ ternary (printf "%s,%s" $value $given) $value (ne $given "") | quote }}
{{- end }}
{{- range $name, $value := .root.Values.extraEnv }}
{{- if not (hasKey $.extra $name) }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Every DNS name of the supervisor Service, which its web service answers to. */}}
{{- define "jupyter-mars.supervisorHosts" -}}
{{- $service := printf "%s-supervisor" (include "jupyter-mars.name" .) -}}
{{- $full := printf "%s.%s.svc" $service .Release.Namespace -}}
{{- printf "%s,%s.%s,%s,%s.cluster.local" $service $service .Release.Namespace $full $full -}}
{{- end -}}
